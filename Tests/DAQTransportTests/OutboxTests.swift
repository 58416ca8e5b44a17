import NIOCore
import Testing

@testable import DAQTransport

/// Packet ids and the order of re-sending, without a connection.
@Suite("mqtt outbox", .timeLimit(.minutes(20)))
struct OutboxTests {
    static func message(_ token: UInt64, qos: MQTTQoS = .atLeastOnce) -> MQTTOutgoing {
        MQTTOutgoing(token: token, topic: "t", payload: ByteBuffer(), qos: qos, retain: false, samples: 1)
    }

    @Test func unacknowledgedMessagesAreResentInOrderMarkedDuplicate() {
        var box = MQTTOutbox(maxInflight: 10)
        for t in 1...5 { box.enqueue(Self.message(UInt64(t))) }
        let sent = (1...5).compactMap { _ in box.next() }
        #expect(sent.map(\.packetID) == [1, 2, 3, 4, 5])
        #expect(box.acknowledge(2)?.token == 2)
        #expect(box.acknowledge(2) == nil, "a second PUBACK for the same id is ignored")
        let again = box.inflightForResend()
        #expect(again.map(\.token) == [1, 3, 4, 5])
        #expect(again.allSatisfy { $0.duplicate && $0.publish.duplicate })
        #expect(again.map(\.packetID) == [1, 3, 4, 5], "the same packet ids, for a persistent session")
    }

    @Test func theWindowBoundsMessagesInFlightButNotQoS0() {
        var box = MQTTOutbox(maxInflight: 2)
        for t in 1...3 { box.enqueue(Self.message(UInt64(t))) }
        #expect(box.next() != nil && box.next() != nil)
        #expect(box.next() == nil, "the window is full")
        _ = box.acknowledge(1)
        #expect(box.next()?.token == 3)
        box.enqueue(Self.message(9, qos: .atMostOnce))
        #expect(box.next()?.packetID == nil, "QoS 0 needs no id and no room in the window")
    }

    @Test func packetIDsWrapAroundSkippingThoseInFlightAndTheSubscribeID() {
        var box = MQTTOutbox(maxInflight: 65_000)
        box.enqueue(Self.message(0))
        let first = box.next()!
        var last: UInt16 = 0
        for t in 1..<65_534 {
            box.enqueue(Self.message(UInt64(t)))
            let m = box.next()!
            last = m.packetID!
            _ = box.acknowledge(last)
        }
        #expect(last == 65_534)
        box.enqueue(Self.message(99))
        #expect(box.next()?.packetID == 2, "id 1 is still in flight; 65535 is SUBSCRIBE's")
        #expect(first.packetID == 1)
    }
}
