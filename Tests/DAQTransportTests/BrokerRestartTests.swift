import DAQCore
import DAQTesting
import Foundation
import Testing

/// The shipped edge and collector, as they come, across a restart of a Mosquitto that persists
/// sessions: the collector's QoS 1 source keeps its session by default, so what the edge
/// publishes before the collector is back waits for it at the broker.
@Suite("shipped pipelines across a broker restart", .serialized, .timeLimit(.minutes(20)))
struct BrokerRestartTests {
    /// What one run carried: samples the edge had acknowledged, lines and distinct samples logged.
    struct Count: CustomStringConvertible {
        var delivered = 0, lines = 0, distinct = 0
        var description: String { "\(lines) lines, \(distinct) distinct, of \(delivered)" }
    }

    /// One edge replaying the walk recording (6,000 samples) at 40×, the broker restarted once
    /// a quarter has reached the log; the log is read once the edge is done and the collector
    /// has emitted as many samples, or 10 s after.
    static func oneRun(overrides: [String] = []) throws -> Count {
        let broker = try Mosquitto(persistent: true)
        try broker.start()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("daq-restart-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = scratch.appendingPathComponent("fleet.jsonl").path
        let environment = [
            "MQTT_URL": broker.url, "OUTPUT": output, "TOPIC": "site9", "SPEED": "40",
            "INPUT": EdgePipelineTests.root.appendingPathComponent("recordings/walk.csv").path,
            "SPOOL": scratch.appendingPathComponent("spool").path,
        ]
        let logger = try LiveRun(
            try EdgePipelineTests.yaml("broker-to-logger.yaml"), environment: environment, overrides: overrides,
            file: "broker-to-logger.yaml")
        let edge = try LiveRun(
            try EdgePipelineTests.yaml("edge-to-broker.yaml"), environment: environment, file: "edge-to-broker.yaml")
        #expect(logger.waitForSent("log", atLeast: 1500), "the log had a quarter before the restart")
        try broker.restart()
        let (sent, _) = edge.finish(within: 60)
        #expect(sent.state == .finished, "\(sent.failure ?? "")")
        var count = Count()
        count.delivered = edge.stats("broker", in: sent)?.delivered ?? 0
        let n = count.delivered
        _ = logger.events.wait(seconds: 10) { _ in
            (logger.run.statistics.first { $0.name == "fleet" }?.samplesOut ?? 0) >= n
        }
        logger.run.stop()
        let (logged, _) = logger.finish()
        #expect(logged.state == .finished, "\(logged.failure ?? "")")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        count.lines = lines.count
        count.distinct =
            Set(
                lines.compactMap { line -> Double? in
                    guard case .object(let o) = try? JSONParser.parse(Array(line.utf8)) else { return nil }
                    return o["timestamp"]?.doubleValue
                }
            ).count
        return count
    }

    @Test func theShippedCollectorLosesNothingAcrossTenRestarts() throws {
        var counts: [Count] = []
        for _ in 1...10 { counts.append(try Self.oneRun()) }
        #expect(counts.allSatisfy { $0.delivered == 6000 }, "the edge delivered everything: \(counts)")
        #expect(
            counts.allSatisfy { $0.lines == 6000 && $0.distinct == 6000 }, "every sample once, every run: \(counts)")
    }
}
