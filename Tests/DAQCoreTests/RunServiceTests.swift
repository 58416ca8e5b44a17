import DAQCore
import DAQTesting
import ServiceLifecycle
import Testing

/// `PipelineRun` as a swift-service-lifecycle `Service`, and `finished` for `async` code.
@Suite("PipelineRun as a Service", .timeLimit(.minutes(20)))
struct RunServiceTests {
    @Test func runStartsTheRunAndReturnsWhenItEnds() async throws {
        let run = try AsyncRun.make("count: 4, size: 5")
        try await run.run()
        #expect(run.lifecycleState == .finished)
        #expect(AsyncRun.collected(run).count == 20)
        let result = await run.finished
        #expect(result.state == .finished && result.error == nil)
        #expect(result.stages.first { $0.name == "src" }?.samplesOut == 20)
    }

    @Test func aGracefulShutdownOfItsServiceGroupStopsTheRun() async throws {
        let run = try AsyncRun.make("count: 2, size: 5, idle: true")
        let emitted = try run.samples(of: "src")
        let group = ServiceGroup(services: [run], logger: AsyncRun.quietLogger)
        let served = Task { try await group.run() }
        // The source idles after its batches: only the shutdown can end this run. Shut down once
        // both batches are out, so the test shows that they are drained, not discarded.
        var out = 0
        for await batch in emitted {
            out += batch.count
            if out == 10 { break }
        }
        await group.triggerGracefulShutdown()
        try await served.value
        let result = await run.finished
        #expect(result.state == .finished)
        // Graceful: what the source read was drained into the sink, not discarded.
        #expect(AsyncRun.collected(run).count == 10)
    }

    @Test func cancellingTheTaskCancelsTheRun() async throws {
        let run = try AsyncRun.make("count: 1, size: 5, idle: true")
        let events = run.events
        let task = Task { try await run.run() }
        await AsyncRun.untilRunning(events)
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(await run.finished.state == .cancelled)
    }

    @Test func aFailedRunThrowsItsDAQError() async throws {
        let run = try AsyncRun.make("count: 3, size: 5, fail: 2")
        let error = await #expect(throws: DAQError.self) { try await run.run() }
        #expect(error?.code == .badInput)
        #expect(error?.component == "src")
        #expect(error?.message == "read 2 went wrong")
        #expect(await run.finished.error == error)
    }

    @Test func aRunStartedAlreadyIsOnlyAwaited() async throws {
        let run = try AsyncRun.make("count: 2, size: 3")
        try run.start()
        try await run.run()
        #expect(AsyncRun.collected(run).count == 6)
    }

    /// Awaited before the start, `finished` waits for the start and then the end, rather than
    /// reporting the idle run.
    @Test func finishedAwaitedBeforeTheStartWaitsForTheEnd() async throws {
        let run = try AsyncRun.make("count: 3, size: 2")
        async let result = run.finished
        let events = run.events
        try run.start()
        for await _ in events {}
        #expect(await result.state == .finished)
        #expect(await result.stages.first { $0.name == "out" }?.samplesIn == 6)
    }
}
