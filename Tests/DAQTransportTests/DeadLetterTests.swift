import DAQCore
import DAQTesting
import Foundation
import Testing

/// A message that is not samples, from a real Mosquitto, becomes a dead letter of the source;
/// one the sink sent but could not deliver becomes a dead letter of the sink.
@Suite("mqtt dead letters", .serialized, .timeLimit(.minutes(20)))
struct MQTTDeadLetterTests {
    @Test func aPayloadThatIsNotSamplesGoesToTheSourcesDeadOutput() throws {
        let broker = try Mosquitto()
        try broker.start()
        // Retained, so the receiver gets it on subscribing, whenever that is.
        let pub = try Process.runToEnd(
            "mosquitto_pub",
            ["-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "t/bad", "-r", "-q", "1", "-m", "hello, broker"],
            timeout: 60)
        try #require(
            pub.status == 0,
            "mosquitto_pub failed (apt-get install -y mosquitto-clients; scripts/test.sh does it): \(pub.errors)")

        let rx = try LiveRun(
            """
            name: rx
            clock: realtime
            sources:
              rx: {type: mqtt, url: "\(broker.url)", topics: ["t/#"], on_error: dead_letter, reconnect_delay: 0.02}
            sinks:
              got: {type: collect, inputs: [rx]}
              dead: {type: collect, inputs: [rx.dead]}
            """)
        let deadline = Date(timeIntervalSinceNow: 30)
        // waits for the letter, not for time
        while rx.collected("dead").isEmpty && Date() < deadline { usleep(10_000) }
        let (result, _) = rx.finish(within: 0)
        #expect(result.state == .finished, "\(result.failure ?? "")")
        let dead = rx.collected("dead")
        #expect(dead.map { $0["raw"]?.stringValue } == ["hello, broker"], "\(dead)")
        #expect(dead.first?["error"]?.stringValue?.contains("message on 't/bad' is not samples") == true, "\(dead)")
        #expect(dead.first?["component"]?.stringValue == "rx")
        #expect(rx.collected("got").isEmpty)
    }

    /// Writes samples with these ids as JSON Lines in a fresh directory; returns the file.
    static func ids(_ ids: [String]) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-dead-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let rows = ids.enumerated().map { "{\"timestamp\":\($0.offset + 1),\"id\":\"\($0.element)\"}\n" }
        try rows.joined().write(toFile: dir + "/ids.jsonl", atomically: true, encoding: .utf8)
        return dir + "/ids.jsonl"
    }

    /// Publishes ids `a`, a 70 000-byte id and `c` with topic `t/{id}` under `policy`, and
    /// checks what every policy shares: the long one is failed once and the others delivered.
    static func publishWithALongTopic(policy: String, _ check: (LiveRun, String) throws -> Void) throws {
        let broker = try Mosquitto()
        try broker.start()
        let long = String(repeating: "x", count: 70_000)  // MQTT strings stop at 65535 bytes
        let input = try Self.ids(["a", long, "c"])
        defer { try? FileManager.default.removeItem(atPath: (input as NSString).deletingLastPathComponent) }
        let deadSink = policy == "dead_letter" ? "\n  dead: {type: collect, inputs: [pub.dead]}" : ""
        let tx = try LiveRun(
            """
            name: ids
            clock: virtual
            sources: {rec: {type: file, path: "\(input)"}}
            sinks:
              pub: {type: mqtt, inputs: [rec], url: "\(broker.url)", topic: "t/{id}", qos: 1, on_error: \(policy)}\(deadSink)
            """)
        let (result, _) = tx.finish()
        #expect(result.state == .finished, "\(result.failure ?? "")")
        let pub = try #require(tx.stats("pub", in: result))
        #expect(pub.sent == 3 && pub.delivered == 2 && pub.failed == 1, "\(pub)")
        #expect(pub.errors == 1, "one message that cannot be sent is one error: \(tx.messages("pub"))")
        let failures = tx.events.all.compactMap {
            if case .sinkFailed("pub", let n, let m) = $0 { (n, m) } else { nil }
        }
        #expect(
            failures.count == 1 && failures.first?.0 == 1 && failures.first?.1.contains("65535") == true, "\(failures)")
        try check(tx, long)
    }

    @Test func aMessageWhoseTopicMQTTCannotCarryIsFailedOnceAndSkipped() throws {
        // What skipping shows is what every policy shares: failed once, the others delivered.
        try Self.publishWithALongTopic(policy: "skip") { _, _ in }
    }

    @Test func aMessageWhoseTopicMQTTCannotCarryIsFailedOnceAndKeptAsADeadLetter() throws {
        try Self.publishWithALongTopic(policy: "dead_letter") { tx, long in
            let dead = tx.collected("dead")
            try #require(dead.count == 1, "\(dead)")
            #expect(
                dead[0]["raw"]?.stringValue?.contains("\"id\":\"\(long)\"") == true,
                "the payload, with the sample in it")
            #expect(dead[0]["error"]?.stringValue?.contains("65535") == true)
            #expect(dead[0]["component"]?.stringValue == "pub")
        }
    }

    @Test func messagesNeverAcknowledgedByTheEndGoToTheDeadOutputWithoutASpool() throws {
        let broker = try Mosquitto()  // never started: nothing answers on its port
        let input = try Self.ids(["a", "b", "c"])
        defer { try? FileManager.default.removeItem(atPath: (input as NSString).deletingLastPathComponent) }
        let tx = try LiveRun(
            """
            name: ids
            clock: virtual
            sources: {rec: {type: file, path: "\(input)"}}
            sinks:
              pub: {type: mqtt, inputs: [rec], url: "\(broker.url)", topic: "t/{id}", qos: 1, drain_timeout: 0.2, reconnect_delay: 0.05, on_error: dead_letter}
              dead: {type: collect, inputs: [pub.dead]}
            """)
        let (result, _) = tx.finish()
        #expect(result.state == .finished, "\(result.failure ?? "")")
        let pub = try #require(tx.stats("pub", in: result))
        #expect(pub.sent == 3 && pub.delivered == 0 && pub.failed == 3, "\(pub)")
        // The letters are reported while the sink finishes: they must still reach `dead`.
        let dead = tx.collected("dead")
        #expect(dead.compactMap { $0["raw"]?.stringValue }.filter { $0.contains("\"id\":") }.count == 3, "\(dead)")
        #expect(dead.allSatisfy { $0["error"]?.stringValue?.contains("not acknowledged") == true }, "\(dead)")
    }
}
