import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// A fresh temporary directory.
func tempDirectory() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-motion-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// Writes `text` to a new file called `name` in a fresh directory and returns its path.
func recording(_ name: String, _ text: String) -> String {
    let path = (tempDirectory() as NSString).appendingPathComponent(name)
    _ = FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    return path
}

/// Compresses `path` with the system's gzip into `path.gz` (or `to`), keeping the original.
func gzip(_ path: String, to target: String? = nil) throws -> String {
    let out = target ?? path + ".gz"
    let r = try Process.runToEnd("sh", ["-c", "gzip -c \"$0\" > \"$1\"", path, out], timeout: 60)
    try #require(r.status == 0, "gzip failed: \(r.errors)")
    return out
}

/// A replay source on `path` with more configuration lines, started.
func replay(_ path: String, _ extra: String = "") throws -> SourceHarness {
    try SourceHarness(MotionReplaySource.self, config: "path: \"\(path)\"\n" + extra, name: "accel")
}

/// Reads every sample of a replay; rethrows the error that ended it.
func replayAll(_ path: String, _ extra: String = "") throws -> (samples: [Sample], events: [PipelineEvent]) {
    let h = try replay(path, extra)
    let (samples, status) = try h.read()
    #expect(status == .finished)
    return (samples, h.events)
}

/// Reads until the source throws, and returns what came before with the error.
func replayUntilFailure(_ h: SourceHarness) -> (samples: [Sample], error: (any Error)?) {
    var out: [Sample] = []
    while true {
        var b = Batch(stream: "accel")
        do {
            let status = try h.source.read(into: &b, limit: 1024, context: h.context)
            out.append(contentsOf: b.samples)
            if status == .finished { return (out, nil) }
        } catch {
            out.append(contentsOf: b.samples)
            return (out, error)
        }
    }
}

extension [PipelineEvent] {
    /// Notices a stage reported, in order.
    var notices: [String] { compactMap { if case .notice(_, let m) = $0 { m } else { nil } } }
    /// Warnings a stage reported, in order.
    var warnings: [String] { compactMap { if case .warning(_, let m) = $0 { m } else { nil } } }
}

extension Sample {
    /// A numeric field, or NaN when absent so a comparison fails loudly.
    func number(_ name: String) -> Double { self[name]?.doubleValue ?? .nan }
}

/// `a` and `b` equal within `tolerance`.
func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }
