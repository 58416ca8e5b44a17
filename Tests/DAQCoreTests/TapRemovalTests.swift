import DAQTesting
import Testing

@testable import DAQCore

/// `run.samples(of:)` adds a tap to the component's stage; a consumer that goes away (an
/// embedding program's view closed, hundreds of times during a week-long live run) must take it
/// away, or the stage calls every stale tap on every batch until the run ends.
@Suite("a batch stream's tap goes with its consumer", .timeLimit(.minutes(20)))
struct TapRemovalTests {
    @Test func aDroppedStreamTakesItsTapAway() throws {
        let run = try AsyncRun.make("count: 3, size: 4")
        let kept = try run.samples(of: "src")
        for _ in 0..<5 { _ = try run.samples(of: "src") }
        #expect(run.stage(named: "src")?.tapCount == 1, "only the stream still held keeps a tap")
        #expect(run.eventHub.openBatchStreams == 1, "the hub forgets the streams dropped")
        _ = kept
    }

    @Test func aCancelledConsumerTakesItsTapAway() async throws {
        let run = try AsyncRun.make("count: 3, size: 4")
        let stream = try run.samples(of: "src")
        let consumer = Task {
            for await _ in stream {}
        }
        consumer.cancel()
        await consumer.value
        #expect(run.stage(named: "src")?.tapCount == 0)
        #expect(run.eventHub.openBatchStreams == 0)
    }

    @Test func aStreamStillReadSeesEveryBatchAfterOthersLeft() async throws {
        let run = try AsyncRun.make("count: 3, size: 4")
        let stream = try run.samples(of: "src")
        for _ in 0..<3 { _ = try run.samples(of: "src") }
        try await run.run()
        var samples = 0
        for await batch in stream { samples += batch.count }
        #expect(samples == 12)
    }
}
