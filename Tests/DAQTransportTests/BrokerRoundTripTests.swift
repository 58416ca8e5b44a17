import DAQCore
import DAQTesting
import DAQTransport
import Foundation
import Testing

/// `mqtt` sink → a real Mosquitto → `mqtt` source.
@Suite("mqtt against Mosquitto", .serialized, .timeLimit(.minutes(20)))
struct BrokerRoundTripTests {
    static func receiver(_ url: String, topics: String = "[\"t/#\"]", count: Int, extra: String = "") -> String {
        """
        name: rx
        clock: realtime
        sources:
          rx: {type: mqtt, url: "\(url)", topics: \(topics), count: \(count), reconnect_delay: 0.02, max_reconnect_delay: 0.05\(extra)}
        sinks:
          got: {type: collect, inputs: [rx]}
        """
    }

    static func sender(
        _ url: String, count: Int, qos: Int, clock: String = "virtual", rate: Int = 1000, extra: String = ""
    ) -> String {
        """
        name: tx
        clock: \(clock)
        steps:
          - {path: walk/out, at: 0}
          - {path: walk/back, at: \(Double(max(count, 2)) / Double(rate) / 2)}
        sources:
          gen: {type: generator, signal: sine, rate: \(rate), count: \(count)}
        sinks:
          pub: {type: mqtt, inputs: [gen], url: "\(url)", topic: "t/{pipeline}/{stream}", qos: \(qos)\(extra)}
          local: {type: collect, inputs: [gen]}
        """
    }

    @Test(arguments: [0, 1])
    func samplesRoundTripExactly(qos: Int) throws {
        let broker = try Mosquitto()
        try broker.start()
        let n = 3000
        let rx = try LiveRun(Self.receiver(broker.url, count: n))
        let tx = try LiveRun(Self.sender(broker.url, count: n, qos: qos))
        let (sent, _) = tx.finish()
        #expect(sent.state == .finished, "\(sent.failure ?? "")")
        let pub = tx.stats("pub", in: sent)
        // `sent` also counts the step markers the engine weaves in, which this sink does not publish.
        #expect(pub?.delivered == n && pub?.failed == 0, "\(String(describing: pub))")
        let (received, byItself) = rx.finish()
        #expect(byItself && received.state == .finished, "\(received.failure ?? "")")
        let original = tx.collected("local")
        let got = rx.collected("got")
        #expect(got.count == n)
        // Same fields with the same types, timestamp, step path and kind; the stream and uptime are the receiver's.
        // The receiver adds where each sample came from (`origin`); the rest is as sent.
        for (a, var b) in zip(original, got) {
            #expect(b["topic"] == .string("t/tx/gen") && b["pipeline"] == .string("tx"))
            b.fields = Fields(b.fields.pairs.filter { !["topic", "pipeline", "host"].contains($0.0) })
            #expect(a.fields == b.fields && a.timestamp == b.timestamp && a.stepPath == b.stepPath && a.kind == b.kind)
            if a.fields != b.fields { break }
        }
        #expect(Set(got.map(\.stepPath)) == ["walk/out", "walk/back"])
    }

    @Test func tlsRoundTrip() throws {
        let broker = try Mosquitto(tls: true)
        try broker.start()
        let tls = ", ca_file: \"\(broker.caFile)\""
        let rx = try LiveRun(Self.receiver(broker.tlsURL, count: 100, extra: tls))
        let tx = try LiveRun(Self.sender(broker.tlsURL, count: 100, qos: 1, extra: tls))
        let (sent, _) = tx.finish()
        #expect(tx.stats("pub", in: sent)?.delivered == 100, "\(sent.failure ?? "")")
        let (_, byItself) = rx.finish()
        #expect(byItself && rx.collected("got").count == 100)
        // Without the test CA the certificate is not trusted: the sink says so and retries.
        let untrusted = try LiveRun(Self.sender(broker.tlsURL, count: 5, qos: 1, extra: ", drain_timeout: 0.2"))
        let (r, _) = untrusted.finish()
        #expect(untrusted.stats("pub", in: r)?.delivered == 0)
        #expect(
            untrusted.messages("pub").first?.contains("localhost:\(broker.port)") == true,
            "\(untrusted.messages("pub"))")
    }

    /// A broker that asks for a client certificate takes the client that shows one its CA signed
    /// (`cert_file`, `key_file`), and refuses one without: the sink says so and delivers nothing.
    @Test func clientCertificateRoundTrip() throws {
        let broker = try Mosquitto(tls: true, clientCertificates: true)
        try broker.start()
        let trust = ", ca_file: \"\(broker.caFile)\""
        let identity = trust + ", cert_file: \"\(broker.clientCertFile)\", key_file: \"\(broker.clientKeyFile)\""
        let rx = try LiveRun(Self.receiver(broker.tlsURL, count: 50, extra: identity))
        let tx = try LiveRun(Self.sender(broker.tlsURL, count: 50, qos: 1, extra: identity))
        let (sent, _) = tx.finish()
        #expect(tx.stats("pub", in: sent)?.delivered == 50, "\(sent.failure ?? "")")
        let (_, byItself) = rx.finish()
        #expect(byItself && rx.collected("got").count == 50)
        let anonymous = try LiveRun(Self.sender(broker.tlsURL, count: 5, qos: 1, extra: trust + ", drain_timeout: 0.2"))
        let (r, _) = anonymous.finish()
        #expect(anonymous.stats("pub", in: r)?.delivered == 0)
        #expect(!anonymous.messages("pub").isEmpty, "the refused connection is reported")
        // The CA's key is not the client certificate's: a clear error at start, naming no secret.
        let mismatched =
            trust + ", cert_file: \"\(broker.clientCertFile)\", key_file: \"\(broker.directory.path)/ca.key\""
        #expect {
            _ = try LiveRun(Self.sender(broker.tlsURL, count: 5, qos: 1, extra: mismatched))
        } throws: { error in
            "\(error)".contains("is the key the certificate's?")
        }
        #expect {
            _ = try LiveRun(
                Self.sender(
                    broker.tlsURL, count: 5, qos: 1,
                    extra: trust + ", cert_file: /nonexistent.pem, key_file: /nonexistent.key"))
        } throws: { error in
            "\(error)".contains("cannot load cert_file '/nonexistent.pem'")
        }
    }

    @Test func wrongPasswordIsAClearError() throws {
        // Two variables the test process has, with different values (none is set here: the
        // suite runs in parallel): the broker takes the one's value as the password.
        let set = SetVariables.pick(2)
        try #require(set.count == 2, "the environment has no two variables to carry passwords")
        let (right, wrong) = (set[0], set[1])
        let broker = try Mosquitto(users: ["edge": right.value])
        try broker.start()
        let auth = ", username: edge, password_env: \(wrong.name)"
        // The sink finds out at start, before any sample flows: the run does not start.
        #expect {
            _ = try LiveRun(Self.sender(broker.url, count: 10, qos: 1, extra: auth))
        } throws: { error in
            let text = "\(error)"
            return text.contains(
                "sinks.pub: the MQTT broker at 127.0.0.1:\(broker.port) refused the connection for user 'edge'")
                && text.contains("refused the credentials")
        }
        let good = ", username: edge, password_env: \(right.name)"
        let tx = try LiveRun(Self.sender(broker.url, count: 10, qos: 1, extra: good))
        let (ok, _) = tx.finish()
        #expect(ok.state == .finished && tx.stats("pub", in: ok)?.delivered == 10, "\(ok.failure ?? "")")
    }

    @Test func brokerNotRunningIsRetriedThenDelivered() throws {
        let broker = try Mosquitto()
        // Replayed at 1x: 200 samples take 2 s, and the sink retries meanwhile.
        let tx = try LiveRun(
            Self.sender(
                broker.url, count: 200, qos: 1, clock: "realtime", rate: 100,
                extra: ", reconnect_delay: 0.05, max_reconnect_delay: 0.2"))
        let retried = tx.events.wait {
            LiveRun.messages("pub", in: $0).filter { $0.contains("retrying in") }.count >= 3
        }
        #expect(retried, "\(tx.messages("pub"))")
        let first = tx.messages("pub").first ?? ""
        #expect(
            first.contains("cannot reach the MQTT broker at 127.0.0.1:\(broker.port) (connection refused)"), "\(first)")
        try broker.start()
        let (result, _) = tx.finish()
        #expect(result.state == .finished, "\(result.failure ?? "")")
        let pub = tx.stats("pub", in: result)
        #expect(pub?.delivered == 200 && pub?.failed == 0, "\(String(describing: pub))")
        #expect(tx.messages("pub").contains { $0.contains("connected to the MQTT broker at 127.0.0.1:\(broker.port)") })
    }

    @Test func unacknowledgedSamplesFailWithoutASpool() throws {
        let broker = try Mosquitto()  // never started
        let tx = try LiveRun(Self.sender(broker.url, count: 20, qos: 1, extra: ", drain_timeout: 0.3"))
        let (result, _) = tx.finish()
        let pub = tx.stats("pub", in: result)
        #expect(pub?.delivered == 0 && pub?.failed == 20, "\(String(describing: pub))")
        let failure = tx.events.all.compactMap { if case .sinkFailed(_, _, let m) = $0 { m } else { nil } }.first ?? ""
        #expect(failure.contains("not acknowledged by the MQTT broker at 127.0.0.1:\(broker.port)"), "\(failure)")
    }
}
