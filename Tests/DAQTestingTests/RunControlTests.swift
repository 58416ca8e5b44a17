import DAQCore
import DAQStandard
import DAQTesting
import Dispatch
import Synchronization
import Testing

/// `type: test.tickfail` — asks for a tick 20 ms into the run, and throws from it.
final class TickFailTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "test.tickfail"
    static let summary = "test transform whose tick throws"
    init(configuration: Configuration, context: PluginContext) throws {}
    func start(context: StageContext) throws { context.requestTick(atUptime: 0.02) }
    func process(_ batch: inout Batch, context: StageContext) throws {}
    func tick(now: Double, context: StageContext) throws -> Batch {
        throw TickError(description: "the tick broke")
    }
}

struct TickError: Error, CustomStringConvertible { var description: String }

/// What the run's control plane promises its callers: one start, failures that reach the run
/// from anywhere, observers free to call the run back from any thread.
@Suite("Run control", .timeLimit(.minutes(20)))
struct RunControlTests {
    static let plugins = StandardPlugins.all + [.transform(TickFailTransform.self), .collect]

    static func spec(_ yaml: String) throws -> PipelineSpec {
        try PipelineLoader(registry: PluginRegistry(plugins)).load(text: yaml, file: "control.yaml")
    }

    /// A second `start()` used to restart every plugin and leave `wait()` hanging.
    @Test func aSecondStartThrowsAndTheRunEndsOnce() throws {
        let run = try PipelineRun(
            spec: Self.spec(
                """
                clock: virtual
                sources: {gen: {type: generator, count: 100}}
                sinks: {out: {type: collect, inputs: [gen]}}
                """))
        try run.start()
        #expect(throws: DAQError.self) { try run.start() }
        let result = run.wait()
        #expect(result.state == .finished)
        #expect((run.plugin(named: "out") as? CollectSink)?.samples.filter { $0.kind == .data }.count == 100)
    }

    /// A transform's tick that threw used to be reported as failed without telling the run,
    /// which then finished as if nothing had happened.
    @Test func aTickThatThrowsFailsTheRun() throws {
        let run = try PipelineRun(
            spec: Self.spec(
                """
                clock: realtime
                sources: {gen: {type: generator, rate: 100, count: 20}}
                transforms: {t: {type: test.tickfail, inputs: [gen]}}
                sinks: {out: {type: collect, inputs: [t]}}
                """))
        try run.start()
        let result = run.wait()
        #expect(result.state == .failed)
        #expect(result.error?.component == "t" && result.error?.message.contains("the tick broke") == true)
        let t = result.stages.first { $0.name == "t" }
        #expect(t?.state == .failed)
    }

    /// Observers used to be called with the run's transition lock held: one that waited for
    /// another thread's call into the run (a pause from a UI thread) deadlocked it.
    @Test func anObserverMayWaitForAnotherThreadThatControlsTheRun() throws {
        let box = Mutex<PipelineRun?>(nil)
        let paused = Atomic(false)
        let timedOut = Atomic(false)
        let observer = ClosureObserver { event in
            guard case .state(component: nil, from: _, to: .running) = event, let run = box.withLock({ $0 }),
                !paused.exchange(true, ordering: .acquiringAndReleasing)
            else { return }
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                run.pause()
                done.signal()
            }
            // A deadlock guard, not a wait for time to pass: the call returns at once unless blocked.
            if done.wait(timeout: .now() + 20) == .timedOut { timedOut.store(true, ordering: .releasing) }
        }
        let run = try PipelineRun(
            spec: Self.spec(
                """
                clock: virtual
                sources: {gen: {type: generator, count: 1000}}
                sinks: {out: {type: collect, inputs: [gen]}}
                """), observers: [observer])
        box.withLock { $0 = run }
        try run.start()
        let blocked = timedOut.load(ordering: .acquiring)
        #expect(!blocked, "the pause from another thread was blocked")
        #expect(run.lifecycleState == .paused || run.lifecycleState.isFinal)
        run.resume()
        let result = run.wait()
        #expect(result.state == .finished)
        #expect((run.plugin(named: "out") as? CollectSink)?.samples.filter { $0.kind == .data }.count == 1000)
    }
}
