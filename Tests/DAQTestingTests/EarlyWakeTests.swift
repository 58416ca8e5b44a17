import DAQCore
import DAQTesting
import Dispatch
import Synchronization
import Testing

/// A source that wakes its stage from `start`, as a live source's I/O callback may, and has
/// nothing to read: the earliest a stage can end.
final class EarlyWakeSource: SourcePlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "early-wake"
    static let summary = "test source that wakes while it starts"
    /// Signalled once everything the early wake set off on the stage's queue has run.
    static let settled = DispatchSemaphore(value: 0)

    init(configuration: Configuration, context: PluginContext) throws {}

    func start(context: StageContext) throws {
        context.wake()
        // Three hops on the stage's queue: they run after the read the wake asked for and after
        // the turn that read schedules, so everything the wake set off is over by the signal.
        context.perform { context.perform { context.perform { EarlyWakeSource.settled.signal() } } }
    }

    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus { .finished }
}

/// A source started after ``EarlyWakeSource`` that holds the run's start until the early wake
/// has settled: the run is still starting while the first source's queue is free to act.
final class WaitingSource: SourcePlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "waiting"
    static let summary = "test source whose start waits for the early wake to settle"

    init(configuration: Configuration, context: PluginContext) throws {}

    func start(context: StageContext) throws { EarlyWakeSource.settled.wait() }

    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus { .finished }
}

@Suite("A source woken while it starts", .timeLimit(.minutes(20)))
struct EarlyWakeTests {
    /// Regression (found by the conformance suite on `exec`, whose program can print before
    /// the run has started): the wake read and ended the stage before the run counted it, so
    /// the run left its dispatch group once too often and crashed.
    @Test func readsOnlyOnceTheRunHasStarted() throws {
        let out = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources:
                  early: {type: early-wake}
                  late: {type: waiting}
                sinks: {out: {type: collect, inputs: [early, late]}}
                """, plugins: [.source(EarlyWakeSource.self), .source(WaitingSource.self)])
        #expect(out.result.state == .finished)
        let states = out.events.compactMap { if case .state("early", _, let to) = $0 { return to } else { return nil } }
        #expect(states == [.starting, .running, .stopping, .finished])
    }
}
