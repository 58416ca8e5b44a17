import DAQCore
import DAQTesting
import Foundation
import NIOCore
import Testing

@testable import DAQTransport

/// Where a message came from, and which message an event concerns: the `mqtt` source's
/// `topic`, `pipeline` and `host`; the `mqtt` sink's `messages` events with `_msg` ids.
@Suite("mqtt message origin and ids", .serialized, .timeLimit(.minutes(20)))
struct MessageOriginTests {
    /// The first label of this machine's name, as the sink names its host.
    static var host: String {
        var name = [CChar](repeating: 0, count: 256)
        _ = gethostname(&name, name.count)
        return String(
            String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: ".")
                .first ?? "")
    }

    static func ids(_ run: LiveRun, _ status: MessageStatus) -> [String] {
        run.events.all.flatMap { e -> [String] in
            if case .messages("pub", status, let ids) = e { return ids }
            return []
        }
    }

    @Test func eventsNameTheMessagesAndTheSourceSaysWhereTheyCameFrom() throws {
        let broker = try Mosquitto()
        try broker.start()
        // A plain client sees the payloads as the broker carries them.
        let raw = RecordingDelegate()
        let client = try MQTTClient(
            options: MQTTClientOptions(host: "127.0.0.1", port: broker.port, clientID: "raw"), delegate: raw)
        client.subscribe([("t/#", .atLeastOnce)])
        client.start()
        #expect(raw.recorder.wait { $0.contains { if case .subscribed = $0 { true } else { false } } })
        let n = 60
        let rx = try LiveRun(BrokerRoundTripTests.receiver(broker.url, count: n))
        // Its own client id: two clients with one id would push each other off the broker.
        let plain = try LiveRun(
            BrokerRoundTripTests.receiver(broker.url, count: n, extra: ", origin: false, client_id: daq-rx-plain"))
        let tx = try LiveRun(BrokerRoundTripTests.sender(broker.url, count: n, qos: 1, extra: ", batch_size: 4"))
        let (sent, _) = tx.finish()
        #expect(sent.state == .finished && tx.stats("pub", in: sent)?.delivered == n, "\(sent.failure ?? "")")

        // Every message sent is named once when sent and once when delivered, by its payload's _msg.
        let sentIDs = Self.ids(tx, .sent)
        let deliveredIDs = Self.ids(tx, .delivered)
        #expect(sentIDs.count >= n / 4 && Set(sentIDs).count == sentIDs.count, "\(sentIDs.count) ids")
        #expect(Set(deliveredIDs) == Set(sentIDs) && deliveredIDs.count == sentIDs.count)
        #expect(Self.ids(tx, .failed).isEmpty)
        #expect(
            raw.recorder.wait { $0.filter { if case .received = $0 { true } else { false } }.count >= sentIDs.count })
        let payloads = try raw.recorder.all.compactMap { e -> [SamplePayload.Decoded]? in
            if case .received(let m) = e { return try SamplePayload.decode(m.payload.readableBytesView) }
            return nil
        }
        #expect(Set(payloads.compactMap { $0.first?.messageID }) == Set(sentIDs))
        #expect(payloads.allSatisfy { p in p.allSatisfy { $0.pipeline == "tx" && $0.host == Self.host } })
        _ = try client.stop().wait()

        // The source adds where each sample came from; with origin: false the samples are as sent.
        let (_, byItself) = rx.finish()
        #expect(byItself)
        let got = rx.collected("got")
        #expect(got.count == n)
        #expect(
            got.allSatisfy {
                $0["topic"] == .string("t/tx/gen") && $0["pipeline"] == .string("tx")
                    && $0["host"] == .string(Self.host)
            })
        // The origin the source declares comes first; the sender's own fields follow as they came.
        #expect(got.first?.fields.keys.prefix(3) == ["topic", "pipeline", "host"])
        _ = plain.finish()
        let original = tx.collected("local")
        #expect(plain.collected("got").map(\.fields) == original.map(\.fields))
    }

    @Test func messagesNeverAcknowledgedAreNamedAsFailed() throws {
        let broker = try Mosquitto()  // never started
        let tx = try LiveRun(BrokerRoundTripTests.sender(broker.url, count: 20, qos: 1, extra: ", drain_timeout: 0.3"))
        let (result, _) = tx.finish()
        #expect(tx.stats("pub", in: result)?.failed == 20)
        let sentIDs = Self.ids(tx, .sent)
        let failedIDs = Self.ids(tx, .failed)
        #expect(sentIDs.count == 20 && Set(failedIDs) == Set(sentIDs), "sent \(sentIDs), failed \(failedIDs)")
        #expect(Self.ids(tx, .delivered).isEmpty)
        #expect(sentIDs.allSatisfy { $0.hasPrefix("daq-tx-pub-\(Self.host)@") })
    }

    @Test func thePayloadNamesItsSenderAndAnIdIsReadBackFromEitherForm() throws {
        var out: [UInt8] = []
        let batch = Batch(stream: "s", samples: [Sample(timestamp: 1, uptime: 0, fields: ["x": 1])])
        SamplePayload.append(
            batch, row: 0, messageID: Array("edge@1:7".utf8),
            origin: SamplePayload.origin(pipeline: "walk \"2\"", host: "pi4"), to: &out)
        let decoded = try SamplePayload.decode(out)
        #expect(
            decoded.first?.pipeline == "walk \"2\"" && decoded.first?.host == "pi4"
                && decoded.first?.sample.fields == ["x": 1])
        let single = MQTTOutgoing(
            token: 7, topic: "t", payload: ByteBuffer(bytes: out), qos: .atLeastOnce, retain: false, samples: 1)
        #expect(single.messageID == "edge@1:7")
        let array = MQTTOutgoing(
            token: 7, topic: "t", payload: ByteBuffer(bytes: [UInt8(ascii: "[")] + out + [UInt8(ascii: "]")]),
            qos: .atLeastOnce, retain: false, samples: 1)
        #expect(array.messageID == "edge@1:7")
        #expect(
            MQTTOutgoing(
                token: 1, topic: "t", payload: ByteBuffer(string: "{}"), qos: .atMostOnce, retain: false, samples: 1
            ).messageID == nil)
    }
}
