import DAQCore
import Foundation

extension DAQCommand.Inspect {
    /// A run directory: how its run ended, its stages and files, as its manifest says; a
    /// killed run is told apart from a live one by the directory's lock. Reads only.
    func inspectRun(_ directory: String) throws {
        let record: RunRecord
        do {
            record = try RunRecord(directory: directory)
        } catch {
            printError("daq: \(error)")
            throw ExitStatus.runtimeFailure
        }
        var lines = [record.summary]
        let m = record.manifest
        for key in ["pipeline", "startDate", "endDate"] {
            if let text = m[key]?.stringValue { lines.append("  \(key): \(text)") }
        }
        if case .array(let stages)? = m["stages"] {
            for case .object(let s) in stages {
                var counts = ["in", "out", "dropped", "errors"].map { "\($0) \(s[$0]?.intValue ?? 0)" }
                if s["kind"]?.stringValue == "sink" {
                    counts += ["sent", "delivered", "failed", "queued"].map { "\($0) \(s[$0]?.intValue ?? 0)" }
                }
                lines.append(
                    "  stage \(s["name"]?.stringValue ?? "?"): \(s["state"]?.stringValue ?? "?"), \(counts.joined(separator: ", "))"
                )
            }
        }
        if case .array(let files)? = m["files"] {
            for case .object(let f) in files {
                lines.append(
                    "  file \(f["path"]?.stringValue ?? "?"): \(f["samples"]?.intValue ?? 0) items, \(f["bytes"]?.intValue ?? 0) bytes"
                )
            }
        }
        if record.status == .interrupted {
            lines.append("  run 'daq repair \(directory)' to close its files and mark its manifest interrupted")
        }
        print(lines.joined(separator: "\n"))
    }
}
