import DAQCore
import DAQTesting
import Foundation
import Testing

/// The shipped pipelines against a real broker: an edge replays the walk recording into
/// Mosquitto, the central logger writes what it receives as JSON Lines.
@Suite("pipelines/ with a broker", .serialized, .timeLimit(.minutes(20)))
struct EdgePipelineTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func yaml(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("pipelines/\(name)"), encoding: .utf8)
    }

    @Test func edgeToBrokerToLoggerCarriesEverySampleOnce() throws {
        let broker = try Mosquitto()
        try broker.start()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("daq-edge-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = scratch.appendingPathComponent("fleet.jsonl").path
        let environment = [
            "MQTT_URL": broker.url, "OUTPUT": output, "TOPIC": "site7",
            "INPUT": Self.root.appendingPathComponent("recordings/walk.csv").path,
            "SPOOL": scratch.appendingPathComponent("spool").path,
        ]
        let logger = try LiveRun(
            try Self.yaml("broker-to-logger.yaml"), environment: environment, file: "broker-to-logger.yaml")
        // The edge as fast as the data allow: same samples as at 1x.
        let edge = try LiveRun(
            try Self.yaml("edge-to-broker.yaml"), environment: environment, overrides: ["clock=virtual"],
            file: "edge-to-broker.yaml")
        let (sent, _) = edge.finish(within: 60)
        #expect(sent.state == .finished, "\(sent.failure ?? "")")
        let published = edge.stats("broker", in: sent)
        let n = published?.delivered ?? 0
        #expect(n == 6000 && published?.failed == 0 && published?.spooled == 0, "\(String(describing: published))")
        // Stopping drains what the source has emitted into the file: wait until it has emitted all.
        let received = logger.events.wait { _ in
            (logger.run.statistics.first { $0.name == "fleet" }?.samplesOut ?? 0) >= n
        }
        #expect(received, "logger got \(logger.sent("log")) of \(n)")
        logger.run.stop()
        let (logged, _) = logger.finish()
        #expect(logged.state == .finished, "\(logged.failure ?? "")")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == n, "every sample once in the log")
        let timestamps = Set(
            lines.compactMap { line -> Double? in
                guard case .object(let o) = try? JSONParser.parse(Array(line.utf8)) else { return nil }
                return o["timestamp"]?.doubleValue
            })
        #expect(timestamps.count == n, "no sample twice")
    }
}
