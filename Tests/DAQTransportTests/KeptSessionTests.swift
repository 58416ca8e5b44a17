import DAQCore
import DAQTesting
import Foundation
import Testing

/// A QoS 1 `mqtt` source keeps its session by default: what is published while it is away
/// waits at the broker and arrives, once, when it is back.
@Suite("mqtt source sessions", .serialized, .timeLimit(.minutes(20)))
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

        // Same pipeline and component, so the same client id: the session and its queue. (How
        // soon it starts is the machine's business, not this test's: it waits for the messages.)
        let second = try LiveRun(BrokerRoundTripTests.receiver(broker.url, count: 200))
        let (r2, done) = second.finish(within: 20)
        #expect(done, "the queued messages arrived: \(second.stats("rx", in: r2)?.samplesOut ?? 0) of 200")
        let seqs = second.collected("got").compactMap { $0["seq"]?.intValue }
        #expect(seqs.count == 200 && Set(seqs).count == 200)
    }

    /// A collector stopped mid-stream hands on what it acknowledged and leaves the rest
    /// unacknowledged, so its next run receives it: the two runs hold every sample once.
    @Test func aCollectorStoppedMidStreamLeavesTheRestToItsNextRun() throws {
        let broker = try Mosquitto()
        try broker.start()
        let n = 4000
        let first = try LiveRun(BrokerRoundTripTests.receiver(broker.url, count: n))
        let tx = try LiveRun(BrokerRoundTripTests.sender(broker.url, count: n, qos: 1, clock: "realtime", rate: 2000))
        #expect(first.events.wait { _ in first.collected("got").count >= n / 4 }, "a quarter before the stop")
        first.run.stop()
        let (r1, _) = first.finish()
        let firstPart = first.collected("got").compactMap { $0["seq"]?.intValue }
        try Self.nextRunHoldsTheRest(of: firstPart, firstOut: first.stats("rx", in: r1)?.samplesOut, tx, broker, n)
    }

    /// A collector whose `--duration` ends while messages still arrive leaves what comes at or
    /// after its end unacknowledged rather than take it and drop it with the end: the next run
    /// receives it, and the two runs hold every sample once.
    @Test func aCollectorsDurationEndingMidStreamLeavesTheRestToItsNextRun() throws {
        let broker = try Mosquitto()
        try broker.start()
        let n = 4000
        // Four seconds of messages, the first run's end at three: seconds to spare for a loaded
        // machine's slow start, and a second of messages still arriving at the end.
        let first = try LiveRun(BrokerRoundTripTests.receiver(broker.url, count: n), duration: 3)
        let tx = try LiveRun(BrokerRoundTripTests.sender(broker.url, count: n, qos: 1, clock: "realtime", rate: 1000))
        let (r1, byItself) = first.finish(within: 20)
        #expect(byItself, "the run ended at its duration")
        let firstPart = first.collected("got").compactMap { $0["seq"]?.intValue }
        let late = first.collected("got").filter { $0.uptime >= 3 }.count
        #expect(late == 0, "\(late) samples at or after the run's end")
        #expect(!firstPart.isEmpty, "the first run took samples before its end")
        try Self.nextRunHoldsTheRest(of: firstPart, firstOut: first.stats("rx", in: r1)?.samplesOut, tx, broker, n)
    }

    /// A collector whose `count` is reached while messages still arrive takes no message past
    /// it (taken, acknowledged and dropped at the finish, it would be lost): the next run
    /// receives the rest, and the two runs hold every sample once, whatever the batch size.
    @Test(arguments: [1, 7, 4096])
    func aCollectorsCountReachedMidStreamLeavesTheRestToItsNextRun(batchSize: Int) throws {
        let broker = try Mosquitto()
        try broker.start()
        let n = 4000
        // The first run makes the session; the sender floods it (virtual clock), so messages wait
        // in the source when its count is reached.
        let first = try LiveRun(BrokerRoundTripTests.receiver(broker.url, count: n / 4), batchSize: batchSize)
        let tx = try LiveRun(BrokerRoundTripTests.sender(broker.url, count: n, qos: 1))
        let (r1, byItself) = first.finish(within: 20)
        #expect(byItself, "the run ended at its count")
        let firstPart = first.collected("got").compactMap { $0["seq"]?.intValue }
        #expect(firstPart.count >= n / 4, "\(firstPart.count) samples, fewer than the count")
        try Self.nextRunHoldsTheRest(of: firstPart, firstOut: first.stats("rx", in: r1)?.samplesOut, tx, broker, n)
    }

    /// A collector whose run reaches `--max-samples` while messages still arrive takes no message
    /// past it: the run's limit is the source's budget, so the next run receives the rest and the
    /// two runs hold every sample once, whatever the batch size. (Each message is one sample, so
    /// none straddles the limit.)
    @Test(arguments: [1, 7, 4096])
    func aCollectorsMaxSamplesReachedMidStreamLeavesTheRestToItsNextRun(batchSize: Int) throws {
        let broker = try Mosquitto()
        try broker.start()
        let n = 4000
        let first = try LiveRun(
            BrokerRoundTripTests.receiver(broker.url, count: n), maxSamples: n / 4, batchSize: batchSize)
        let tx = try LiveRun(BrokerRoundTripTests.sender(broker.url, count: n, qos: 1))
        let (r1, byItself) = first.finish(within: 20)
        #expect(byItself, "the run ended at --max-samples")
        let firstPart = first.collected("got").compactMap { $0["seq"]?.intValue }
        #expect(firstPart.count == n / 4, "\(firstPart.count) samples, not --max-samples")
        try Self.nextRunHoldsTheRest(of: firstPart, firstOut: first.stats("rx", in: r1)?.samplesOut, tx, broker, n)
    }

    /// Runs the collector again while the sender `tx` finishes, and checks that the two runs hold
    /// every one of the `n` samples, each once unless the publisher reconnected. The next run goes
    /// on until every sample is in one run or the other, so a sample it gets twice cannot end it
    /// early and hide one it never got.
    static func nextRunHoldsTheRest(of firstPart: [Int64], firstOut: Int?, _ tx: LiveRun, _ broker: Mosquitto, _ n: Int)
        throws
    {
        let second = try LiveRun(BrokerRoundTripTests.receiver(broker.url, count: n))
        let (sent, _) = tx.finish(within: 30)
        #expect(tx.stats("pub", in: sent)?.delivered == n)
        let covered = second.events.wait(seconds: 20) { _ in
            Set(firstPart + second.collected("got").compactMap { $0["seq"]?.intValue }).count >= n
        }
        second.run.stop()
        _ = second.finish()
        let secondPart = second.collected("got").compactMap { $0["seq"]?.intValue }
        let all = firstPart + secondPart
        let what =
            "first run \(firstPart.count) (\(firstOut ?? 0) out), second \(secondPart.count), distinct \(Set(all).count) of \(n)"
        #expect(covered && Set(all).count == n, "\(what)")
        // QoS 1 is at least once: a publisher that reconnects sends its unacknowledged window
        // again (DUP), and the broker delivers the copies too, to the next run if this one has
        // stopped (its duplicate filter lives as long as the run). Only then may the runs overlap.
        let publisherReconnected = (tx.stats("pub", in: sent)?.errors ?? 0) > 0
        #expect(
            all.count == n || publisherReconnected,
            "samples in both runs, though the publisher never reconnected: \(what)")
    }
}
