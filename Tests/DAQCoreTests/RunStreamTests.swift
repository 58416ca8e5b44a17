import DAQCore
import DAQTesting
import Synchronization
import Testing

/// `run.events` and `run.samples(of:)`: bounded `AsyncSequence`s beside the observers.
@Suite("PipelineRun event and sample streams", .timeLimit(.minutes(20)))
struct RunStreamTests {
    @Test func eachEventStreamSeesEveryEventInOrderAndEndsAfterTheFinalState() async throws {
        let run = try AsyncRun.make("count: 3, size: 4")
        let first = run.events
        let second = run.events
        try await run.run()
        var a: [PipelineEvent] = []
        for await event in first { a.append(event) }
        var b: [PipelineEvent] = []
        for await event in second { b.append(event) }
        #expect(a == b)
        #expect(a.first == .state(component: nil, from: .idle, to: .starting))
        #expect(a.last == .state(component: nil, from: .stopping, to: .finished))
        let pipelineStates = a.compactMap { e -> LifecycleState? in
            if case .state(nil, _, let to) = e { return to }
            return nil
        }
        #expect(pipelineStates == [.starting, .running, .stopping, .finished])
        // Asked for after the end, a stream is empty, and ends at once.
        var late = 0
        for await _ in run.events { late += 1 }
        #expect(late == 0)
    }

    @Test func aSlowEventConsumerLosesTheOldestEventsAndTheyAreCounted() async throws {
        let registry = try PluginRegistry([.source(BatchesSource.self), .collect])
        let spec = try PipelineLoader(registry: registry).load(
            text: """
                name: slow
                clock: virtual
                sources:
                  src: {type: batches, count: 5, size: 2}
                sinks:
                  out: {type: collect, inputs: [src]}
                """, file: "slow.yaml")
        let seen = Mutex(0)
        let run = try PipelineRun(
            spec: spec, options: RunOptions(flushInterval: 0),
            observers: [ClosureObserver { _ in seen.withLock { $0 += 1 } }])
        let events = run.events(buffering: 3)
        // Nothing is taken until the run has ended.
        try await run.run()
        var kept: [PipelineEvent] = []
        for await event in events { kept.append(event) }
        #expect(kept.count == 3)
        #expect(kept.last == .state(component: nil, from: .stopping, to: .finished))
        let total = seen.withLock { $0 }
        #expect(total > 3)
        #expect(events.dropped == total - 3)
    }

    @Test func aSlowSampleConsumerLosesNewBatchesAndTheyAreCounted() async throws {
        let run = try AsyncRun.make("count: 10, size: 5")
        let batches = try run.samples(of: "src", buffering: 2)
        let everything = try run.samples(of: "src", buffering: 100)
        try await run.run()
        var kept: [Batch] = []
        for await batch in batches { kept.append(batch) }
        // The first two batches waited; the eight that came while the buffer was full were dropped.
        #expect(kept.map(\.count) == [5, 5])
        #expect(kept.flatMap { $0.samples.map(\.uptime) } == (0..<10).map { Double($0) / 100 })
        #expect(batches.droppedBatches == 8)
        #expect(batches.droppedSamples == 40)
        var all = 0
        for await batch in everything { all += batch.count }
        #expect(all == 50 && everything.droppedSamples == 0)
        // The pipeline itself lost nothing to the slow consumer.
        #expect(AsyncRun.collected(run).count == 50)
    }

    @Test func theSamplesASinkWroteStreamToo() async throws {
        let run = try AsyncRun.make("count: 2, size: 3")
        let written = try run.samples(of: "out")
        try await run.run()
        var data = 0
        for await batch in written { data += batch.kinds.filter { $0 == .data }.count }
        #expect(data == 6)
    }

    @Test func samplesOfAnUnknownComponentThrowAndNameTheComponents() throws {
        let run = try AsyncRun.make("count: 1")
        let error = #expect(throws: DAQError.self) { try run.samples(of: "scr") }
        #expect(error?.code == .invalidConfiguration)
        #expect(
            error?.message == "pipeline 'async' has no component 'scr' (did you mean 'src'?); it has src, out")
    }
}
