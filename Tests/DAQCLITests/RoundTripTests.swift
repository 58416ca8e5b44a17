import DAQCLI
import DAQCore
import DAQKit
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// Replay a recording → a sample logger → replay that log: the same samples come back.
@Suite("Recording round trip", .timeLimit(.minutes(20)))
struct RoundTripTests {
    static let walk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recordings/walk.csv").path

    @Test(arguments: ["logger.json", "logger.jsonl", "logger.csv"])
    func aLoggedRecordingReplaysToTheSameSamples(_ logger: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-roundtrip-\(UUID().uuidString)")
            .path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let yaml = """
            name: trip
            clock: virtual
            steps: [{path: stand, at: 0}, {path: walk, at: 2.4}, {path: back, at: 30}]
            sources: {accel: {type: motion.replay, path: "\(Self.walk)"}}
            sinks:
              log: {type: \(logger), inputs: [accel], directory: "\(dir)"}
              mem: {type: collect, inputs: [accel]}
            """
        let first = try PipelineHarness.run(yaml: yaml, plugins: BuiltinPlugins.all)
        #expect(first.result.state == .finished)
        let runDir = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasPrefix("trip-") })
        let ext = logger == "logger.json" ? "json" : logger == "logger.jsonl" ? "jsonl" : "csv"
        let log = "\(dir)/\(runDir)/accel.\(ext)"
        let replay = try SourceHarness(MotionReplaySource.self, config: "path: \"\(log)\"")
        let (back, status) = try replay.read()
        #expect(status == .finished)
        let original = first.data("mem")
        let data = back.filter { $0.kind == .data }
        #expect(data.count == original.count)
        for (a, b) in zip(data, original) {
            #expect(a["x"] == b["x"] && a["y"] == b["y"] && a["z"] == b["z"])
            #expect(abs(a.uptime - b.uptime) < 1e-9)
            #expect(a.stepPath == b.stepPath)
        }
        // The log's markers come back as markers: start, each step, stop.
        #expect(back.filter { $0.kind == .marker }.map(\.stepPath) == ["stand", "walk", "back", "back"])
    }
}
