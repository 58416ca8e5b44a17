import DAQCore
import DAQTesting
import Foundation
import Testing

/// A message that is not samples, from a real Mosquitto, becomes a dead letter of the source.
@Suite("mqtt dead letters", .serialized)
struct MQTTDeadLetterTests {
    @Test func aPayloadThatIsNotSamplesGoesToTheSourcesDeadOutput() throws {
        let broker = try Mosquitto()
        try broker.start()
        // Retained, so the receiver gets it on subscribing, whenever that is.
        let pub = Process()
        pub.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        pub.arguments = ["mosquitto_pub", "-h", "127.0.0.1", "-p", "\(broker.port)", "-t", "t/bad", "-r", "-q", "1", "-m", "hello, broker"]
        try pub.run()
        pub.waitUntilExit()
        try #require(pub.terminationStatus == 0, "mosquitto_pub failed")

        let rx = try LiveRun("""
            name: rx
            clock: realtime
            sources:
              rx: {type: mqtt, url: "\(broker.url)", topics: ["t/#"], on_error: dead_letter, reconnect_delay: 0.02}
            sinks:
              got: {type: collect, inputs: [rx]}
              dead: {type: collect, inputs: [rx.dead]}
            """)
        let deadline = Date(timeIntervalSinceNow: 30)
        while rx.collected("dead").isEmpty && Date() < deadline { usleep(10_000) }  // waits for the letter, not for time
        let (result, _) = rx.finish(within: 0)
        #expect(result.state == .finished, "\(result.failure ?? "")")
        let dead = rx.collected("dead")
        #expect(dead.map { $0["raw"]?.stringValue } == ["hello, broker"], "\(dead)")
        #expect(dead.first?["error"]?.stringValue?.contains("message on 't/bad' is not samples") == true, "\(dead)")
        #expect(dead.first?["component"]?.stringValue == "rx")
        #expect(rx.collected("got").isEmpty)
    }
}
