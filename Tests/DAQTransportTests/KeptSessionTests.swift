import DAQCore
import DAQTesting
import Foundation
import Testing

/// A QoS 1 `mqtt` source keeps its session by default: what is published while it is away
/// waits at the broker and arrives, once, when it is back.
@Suite("mqtt source sessions", .serialized)
struct KeptSessionTests {
    @Test func whatArrivesWhileTheCollectorIsAwayReachesItsNextRun() throws {
        let broker = try Mosquitto()
        try broker.start()
        // The first run makes the session (and takes what is published during it).
        let first = try LiveRun(BrokerRoundTripTests.receiver(broker.url, count: 100))
        let tx1 = try LiveRun(BrokerRoundTripTests.sender(broker.url, count: 100, qos: 1))
        #expect(tx1.finish().0.state == .finished)
        let (r1, byItself) = first.finish(within: 20)
        #expect(byItself && first.stats("rx", in: r1)?.samplesOut == 100)

        // Published with no collector connected: the broker queues it for the kept session.
        let tx2 = try LiveRun(BrokerRoundTripTests.sender(broker.url, count: 200, qos: 1))
        let (sent, _) = tx2.finish()
        #expect(tx2.stats("pub", in: sent)?.delivered == 200)

        // Same pipeline and component, so the same client id: the session and its queue.
        let started = Date()
        let second = try LiveRun(BrokerRoundTripTests.receiver(broker.url, count: 200))
        let startup = Date().timeIntervalSince(started)
        #expect(startup < 3, "a kept session is subscribed again, so start does not wait for a SUBACK: \(startup) s")
        let (r2, done) = second.finish(within: 20)
        #expect(done, "the queued messages arrived: \(second.stats("rx", in: r2)?.samplesOut ?? 0) of 200")
        let seqs = second.collected("got").compactMap { $0["seq"]?.intValue }
        #expect(seqs.count == 200 && Set(seqs).count == 200)
    }
}
