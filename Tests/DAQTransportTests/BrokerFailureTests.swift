import DAQCore
import DAQTesting
import DAQTransport
import Foundation
import NIOCore
import Testing

/// The broker dies mid-stream, `daq` restarts with a spool, a payload of a megabyte.
@Suite("mqtt when things go wrong", .serialized, .timeLimit(.minutes(20)))
struct BrokerFailureTests {
    static func scratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("daq-spool-\(UUID().uuidString)").path
    }

    static func spoolFiles(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".spool") }
    }

    /// What one mid-stream outage of the broker left: the samples the collector got, and whether
    /// it stopped by itself once it had all of them.
    struct Outage {
        var seqs: [Int64]
        var receiverFinishedByItself: Bool
        var missing: [Int64]
        var duplicates: Int { seqs.count - Set(seqs).count }
    }

    /// Streams `n` samples at 2 kHz on the realtime clock through a persistent broker that
    /// `interrupt` takes down mid-stream, then brings it back, and checks what the sender owns:
    /// every message acknowledged in the end, nothing failed, the spool emptied.
    func streamThroughAnOutage(_ n: Int, interrupt: (Mosquitto) -> Void) throws -> Outage {
        // A broker that saves sessions comes back with the collector's subscription and queues
        // for it what edges publish before it has reconnected. The session is saved before the
        // stream starts.
        let broker = try Mosquitto(persistent: true)
        try broker.start()
        let spool = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: spool) }
        let rx = try LiveRun(
            BrokerRoundTripTests.receiver(
                broker.url, count: n, extra: ", clean_session: false, client_id: collector-outage-test"))
        #expect(broker.waitForSave(after: Date()), "the broker saved the collector's session")
        // 3 s of samples at 2 kHz, replayed in real time, so the outage lands mid-stream.
        let tx = try LiveRun(
            BrokerRoundTripTests.sender(
                broker.url, count: n, qos: 1, clock: "realtime", rate: 2000,
                extra: ", spool: \"\(spool)\", reconnect_delay: 0.2, max_reconnect_delay: 1, batch_size: 10"))
        // The edge's own progress, not the collector's, which a loaded machine can hold back
        // until the edge has published everything and the outage meets no message.
        #expect(tx.waitForSent("pub", atLeast: n / 4), "the edge published a quarter before the outage")
        interrupt(broker)
        let retried = tx.events.wait { LiveRun.messages("pub", in: $0).contains { $0.contains("retrying in") } }
        #expect(retried, "\(tx.messages("pub"))")
        try broker.start()
        let (sent, _) = tx.finish(within: 60)
        #expect(sent.state == .finished, "\(sent.failure ?? "")")
        let pub = tx.stats("pub", in: sent)
        #expect(pub?.delivered == n && pub?.failed == 0 && pub?.spooled == 0, "\(String(describing: pub))")
        #expect(Self.spoolFiles(spool).isEmpty, "the spool is emptied once everything is acknowledged")
        let (_, byItself) = rx.finish(within: 20)
        #expect(rx.messages("rx").contains { $0.contains("connected to the MQTT broker") })
        let seqs = rx.collected("got").compactMap { $0["seq"]?.intValue }
        let missing = Set((0..<Int64(n)).map { $0 }).subtracting(seqs).sorted()
        return Outage(seqs: seqs, receiverFinishedByItself: byItself, missing: missing)
    }

    @Test func brokerRestartedMidStreamLosesNothingAndDuplicatesNothing() throws {
        // SIGTERM, as a service manager restarts it: the broker saves every queued and in-flight
        // message of the collector's session before it exits, so everything it acknowledged to
        // the edge reaches the collector, and what it did not is re-sent from the spool.
        let n = 6000
        let outage = try streamThroughAnOutage(n) { $0.stop() }
        #expect(outage.receiverFinishedByItself, "missing: \(outage.missing.prefix(20))")
        #expect(outage.seqs.count == n, "every sample arrives once")
        #expect(
            outage.missing.isEmpty && outage.duplicates == 0,
            "none missing, none twice; missing: \(outage.missing.prefix(20))…")
    }

    @Test func brokerKilledMidStreamStillGetsEverythingFromTheEdge() throws {
        // SIGKILL, as a crash leaves it. MQTT acknowledges hop by hop: a message the broker has
        // acknowledged to the edge but not yet written to the collector dies with it, and no
        // client can get it back (that is the broker's persistence, not the edge's). What the
        // edge owns must still hold: every message acknowledged in the end, none failed, the
        // spool empty, and the collector passes none on twice.
        let n = 6000
        let outage = try streamThroughAnOutage(n) { $0.kill() }
        #expect(outage.duplicates == 0, "none twice")
        #expect(outage.missing.count < n / 10, "at most what the broker held in flight: \(outage.missing.prefix(20))")
    }

    @Test func aRestartOfDaqSendsWhatTheSpoolHeld() throws {
        let broker = try Mosquitto()  // not running during the first run
        let spool = Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: spool) }
        let first = try LiveRun(
            BrokerRoundTripTests.sender(
                broker.url, count: 300, qos: 1, extra: ", spool: \"\(spool)\", drain_timeout: 0.2"))
        let (r1, _) = first.finish()
        let pub1 = first.stats("pub", in: r1)
        #expect(pub1?.delivered == 0 && pub1?.failed == 0 && pub1?.spooled == 300, "\(String(describing: pub1))")
        #expect(!Self.spoolFiles(spool).isEmpty)

        try broker.start()
        let rx = try LiveRun(BrokerRoundTripTests.receiver(broker.url, count: 300))
        // The next run has nothing new to send: what arrives is what the spool kept.
        let second = try LiveRun(
            BrokerRoundTripTests.sender(broker.url, count: 0, qos: 1, extra: ", spool: \"\(spool)\""))
        let (r2, _) = second.finish()
        let pub2 = second.stats("pub", in: r2)
        #expect(pub2?.delivered == 300 && pub2?.spooled == 0, "\(String(describing: pub2))")
        #expect(
            second.messages("pub").contains { $0.contains("re-sending 300 messages (300 samples) left in the spool") })
        let (_, byItself) = rx.finish(within: 20)
        #expect(byItself)
        #expect(rx.collected("got").compactMap { $0["seq"]?.intValue } == (0..<300).map { Int64($0) })
        #expect(Self.spoolFiles(spool).isEmpty)
    }

    @Test func aMegabyteSampleReportsProgressEventsInARun() throws {
        let broker = try Mosquitto()
        try broker.start()
        let dir = Self.scratch()
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let input = dir + "/big.jsonl"
        let blob = String(repeating: "a", count: 1 << 20)
        try "{\"timestamp\":1,\"blob\":\"\(blob)\"}\n".write(toFile: input, atomically: true, encoding: .utf8)
        let tx = try LiveRun(
            """
            name: big
            clock: virtual
            sources: {rec: {type: file, path: "\(input)"}}
            sinks: {pub: {type: mqtt, inputs: [rec], url: "\(broker.url)", qos: 1}}
            """)
        let (result, _) = tx.finish()
        #expect(tx.stats("pub", in: result)?.delivered == 1, "\(result.failure ?? "")")
        let progress = tx.events.all.compactMap { if case .progress("pub", let b, let t) = $0 { (b, t) } else { nil } }
        #expect(
            progress.count >= 15 && progress.allSatisfy { $0.1 > 1 << 20 }
                && progress.map(\.0) == progress.map(\.0).sorted())
        let delivered = tx.events.all.compactMap {
            if case .delivered("pub", let n, let b) = $0, n > 0 { b } else { nil }
        }
        #expect(delivered.contains { $0 > 1 << 20 }, "delivered with its bytes")
    }

    @Test func aMegabytePayloadReportsProgressThenDelivery() throws {
        let broker = try Mosquitto()
        try broker.start()
        let port = broker.port
        let delegate = RecordingDelegate()
        let client = try MQTTClient(
            options: MQTTClientOptions(host: "127.0.0.1", port: port, clientID: "big"), delegate: delegate)
        client.start()
        let size = 1 << 20
        let payload = ByteBuffer(repeating: 0x61, count: size)
        client.publish([
            MQTTOutgoing(token: 7, topic: "big/one", payload: payload, qos: .atLeastOnce, retain: false, samples: 1)
        ])
        let delivered = delegate.recorder.wait { events in
            events.contains { if case .delivered([7]) = $0 { true } else { false } }
        }
        #expect(delivered)
        let progress = delegate.recorder.all.compactMap { if case .progress(let b, let t) = $0 { (b, t) } else { nil } }
        #expect(progress.count == size / (64 * 1024) - 1, "every 64 KiB piece but the last reports progress")
        #expect(progress.map(\.0) == progress.map(\.0).sorted() && progress.allSatisfy { $0.1 == size })
        #expect(progress.last?.0 == size - 64 * 1024)
        _ = try client.stop().wait()
    }
}
