import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBarcode

/// A fresh temporary directory.
func tempDirectory() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-barcode-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes `text` to a new file `name` in a fresh directory.
func file(_ name: String, _ text: String) -> String {
    let path = tempDirectory() + "/" + name
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
}

extension Sample {
    /// The scan event name, or `"data"` for other samples.
    var event: String { self["event"]?.stringValue ?? "data" }
    var session: Int64 { self["session"]?.intValue ?? -1 }
}

/// `event@time` for each sample, times to the millisecond: compact to compare.
func timeline(_ samples: [Sample]) -> [String] {
    samples.map { s in
        let ms = Int((s.uptime * 1000).rounded())
        var line = "\(s.event)#\(s.session)@\(ms)"
        if let code = s["code"]?.stringValue { line += " \(code)" }
        if let reason = s["reason"]?.stringValue { line += " (\(reason))" }
        return line
    }
}

/// Every session in `samples` is start, one outcome, stop, in that order.
func sessionsAreWellFormed(_ samples: [Sample]) -> Bool {
    var open: Int64?
    var outcome = false
    for s in samples where s.kind == .event {
        switch s.event {
        case "scan.start":
            if open != nil { return false }
            open = s.session
            outcome = false
        case "scan.data", "scan.timeout", "scan.cancel", "scan.error":
            if open != s.session || outcome { return false }
            outcome = true
        case "scan.stop":
            if open != s.session || !outcome { return false }
            open = nil
        default: return false
        }
    }
    return open == nil
}

extension [PipelineEvent] {
    var warnings: [String] { compactMap { if case .warning(_, let m) = $0 { m } else { nil } } }
    var notices: [String] { compactMap { if case .notice(_, let m) = $0 { m } else { nil } } }
}
