import DAQCore
import Foundation

/// The summary `daq run` prints at the end: how the run ended and every stage's counters.
enum RunSummary {
    /// - Parameter verdicts: the results recorded with a verdict; those not accepted get a line
    ///   under the table, so a finished run that did not do all it was asked says so.
    static func text(_ result: RunResult, pipeline: String, verdicts: [ResultVerdict] = []) -> String {
        let seconds = max(result.endDate - result.startDate, 0)
        // A run that finished past damaged input or skipped rows does not read as a clean one.
        let errors = result.stages.reduce(0) { $0 + $1.errors }
        let state = result.state == .finished && errors > 0 ? "finished with \(errors) error(s)" : result.state.rawValue
        var lines = ["\(pipeline): \(state) in \(String(format: "%.2f", seconds)) s"]
        if let failure = result.failureLine { lines.append("  failure: \(PrintableText.line(failure))") }
        for problem in result.recordProblems { lines.append("  record: \(problem)") }
        // Queued and spooled columns only when a sink has some, so other runs read as before;
        // with them, sent = delivered + failed + queued for every sink.
        let queueing = result.stages.contains { $0.queued > 0 }
        let spooling = result.stages.contains { $0.spooled != nil }
        let header =
            ["stage", "type", "in", "out", "dropped", "errors", "sent", "delivered", "failed"]
            + (queueing ? ["queued"] : [])
            + (spooling ? ["spooled"] : [])
        var rows = [header]
        for s in result.stages {
            let sink = s.kind == .sink
            rows.append(
                [
                    s.name, s.type, s.kind == .source ? "-" : "\(s.samplesIn)", sink ? "-" : "\(s.samplesOut)",
                    "\(s.dropped)", "\(s.errors)", sink ? "\(s.sent)" : "-", sink ? "\(s.delivered)" : "-",
                    sink ? "\(s.failed)" : "-",
                ] + (queueing ? [sink ? "\(s.queued)" : "-"] : [])
                    + (spooling ? [s.spooled.map { "\($0)" } ?? "-"] : []))
        }
        let widths = header.indices.map { c in rows.map { $0[c].count }.max()! }
        for r in rows {
            lines.append(
                "  "
                    + r.enumerated().map { c, v in
                        c < 2
                            ? v.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                            : String(repeating: " ", count: widths[c] - v.count) + v
                    }.joined(separator: "  "))
        }
        for v in verdicts where !v.accepted { lines.append("  result: \(PrintableText.line(v.line))") }
        if let source = result.stages.first(where: { $0.kind == .source }), seconds > 0 {
            let total = result.stages.filter { $0.kind == .source }.map(\.samplesOut).reduce(0, +)
            lines.append(
                "  sources: \(total) samples, \(rate(Double(total) / seconds)) samples/s"
                    + (source.name.isEmpty ? "" : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// The run folders and the files the sinks wrote (samples and size), each file under its
    /// folder when it is in one; `manifest.json` last in each folder.
    static func written(directories: [String], files: [RunRecorder.OutputFile]) -> String {
        var lines: [String] = []
        var shown = Set<String>()
        func entry(_ f: RunRecorder.OutputFile, as name: String) -> String {
            "    \(name)  \(f.samples) samples, \(size(f.bytes))"
        }
        for dir in directories {
            lines.append("  wrote \(dir)/")
            for f in files where (f.path as NSString).deletingLastPathComponent == dir {
                lines.append(entry(f, as: (f.path as NSString).lastPathComponent))
                shown.insert(f.path)
            }
            if FileManager.default.fileExists(atPath: dir + "/manifest.json") { lines.append("    manifest.json") }
        }
        for f in files where !shown.contains(f.path) {
            lines.append("  wrote \(f.path)  \(f.samples) samples, \(size(f.bytes))")
        }
        return lines.joined(separator: "\n")
    }

    /// The rows each database sink committed and where, from the results the sinks recorded
    /// (`{"postgres": {"table", "server", "rows", "from_spool"}}`): a table is an output as a file is, but
    /// not one in the run folder.
    static func tables(_ results: Fields) -> String {
        var lines: [String] = []
        for (component, value) in zip(results.keys, results.values) {
            guard case .object(let result) = value, case .object(let pg)? = result["postgres"],
                let table = pg["table"]?.stringValue, let rows = pg["rows"]?.intValue
            else { continue }
            let server = pg["server"]?.stringValue.map { " on \($0)" } ?? ""
            var line = "  \(component): committed \(rows) rows to table \(table)\(server)"
            if let earlier = pg["from_spool"]?.intValue, earlier > 0 {
                line += ", and \(earlier) rows earlier runs left in its spool"
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// 812 B, 4.2 kB, 1.3 MB.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1_000_000 { return String(format: "%.1f MB", Double(bytes) / 1e6) }
        if bytes >= 1_000 { return String(format: "%.1f kB", Double(bytes) / 1e3) }
        return "\(bytes) B"
    }

    /// 12.3k, 4.56M: rates as people read them.
    static func rate(_ r: Double) -> String {
        if r >= 1e6 { return String(format: "%.2fM", r / 1e6) }
        if r >= 1e3 { return String(format: "%.1fk", r / 1e3) }
        return String(format: "%.0f", r)
    }
}

/// `--events jsonl`: one JSON object per event on standard error.
final class JSONLinesEventWriter: PipelineObserver {
    private let lock = NSLock()

    func handle(_ event: PipelineEvent) {
        var f = Fields()
        f["time"] = .double(Date().timeIntervalSince1970)
        switch event {
        case .state(let c, let from, let to):
            f["event"] = "state"
            f["component"] = c.map(Value.string) ?? .null
            f["from"] = .string(from.rawValue)
            f["to"] = .string(to.rawValue)
        case .failed(let c, let e):
            f["event"] = "failed"
            f["component"] = c.map(Value.string) ?? .null
            f["message"] = .string(e.message)
            f["code"] = .string(e.code.rawValue)
            if let place = e.location { f["location"] = .string(place.description) }
        case .timeout(let c, let m):
            f["event"] = "timeout"
            f["component"] = .string(c)
            f["message"] = .string(m)
        case .stepChanged(let p, let u):
            f["event"] = "step"
            f["stepPath"] = .string(p)
            f["uptime"] = .double(u)
        case .sent(let s, let n, let b):
            f["event"] = "sent"
            f["component"] = .string(s)
            f["samples"] = .int(Int64(n))
            f["bytes"] = .int(Int64(b))
        case .progress(let s, let b, let t):
            f["event"] = "progress"
            f["component"] = .string(s)
            f["bytes"] = .int(Int64(b))
            f["total"] = .int(Int64(t))
        case .delivered(let s, let n, let b):
            f["event"] = "delivered"
            f["component"] = .string(s)
            f["samples"] = .int(Int64(n))
            f["bytes"] = .int(Int64(b))
        case .sinkFailed(let s, let n, let m):
            f["event"] = "sink_failed"
            f["component"] = .string(s)
            f["samples"] = .int(Int64(n))
            f["message"] = .string(m)
        case .messages(let s, let status, let ids):
            f["event"] = "messages"
            f["component"] = .string(s)
            f["status"] = .string(status.rawValue)
            f["ids"] = .array(ids.map(Value.string))
        case .dropped(let c, let n):
            f["event"] = "dropped"
            f["component"] = .string(c)
            f["samples"] = .int(Int64(n))
        case .notice(let c, let m):
            f["event"] = "notice"
            f["component"] = .string(c)
            f["message"] = .string(m)
        case .backpressure(let c):
            f["event"] = "backpressure"
            f["component"] = .string(c)
        case .warning(let c, let m):
            f["event"] = "warning"
            f["component"] = .string(c)
            f["message"] = .string(m)
        }
        var out: [UInt8] = []
        JSONEncoding.append(.object(f), to: &out)
        out.append(0x0A)
        lock.lock()
        FileHandle.standardError.write(Data(out))
        lock.unlock()
    }
}
