import DAQCore
import DAQStandard
import DAQTesting
import Synchronization
import Testing

/// `type: test.refuse` — throws on every batch, so all of its input goes to its dead letters.
final class RefuseTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "test.refuse"
    static let summary = "test transform that throws on every batch"
    init(configuration: Configuration, context: PluginContext) throws {}
    func process(_ batch: inout Batch, context: StageContext) throws {
        throw PickyError(description: "refused")
    }
}

/// `type: test.gated` — a sink that takes no input until its gate opens.
final class GatedSink: SinkPlugin, DeferredWork, @unchecked Sendable {
    struct Configuration: PluginConfiguration {}
    static let typeName = "test.gated"
    static let summary = "test sink that takes input only once opened"
    private let open = Atomic(false)
    private let context = Mutex<StageContext?>(nil)
    init(configuration: Configuration, context: PluginContext) throws {}
    func start(context: StageContext) throws { self.context.withLock { $0 = context } }
    func write(_ batch: Batch, context: StageContext) throws {}
    var acceptsInput: Bool { open.load(ordering: .acquiring) }
    var hasPendingWork: Bool { false }

    /// Lets input in from now on.
    func openGate() {
        open.store(true, ordering: .releasing)
        context.withLock { $0 }?.wake()
    }
}

@Suite("dead letters keep their buffer's bound", .timeLimit(.minutes(20)))
struct DeadLetterBoundTests {
    /// A `block` buffer on `<name>.dead` holds its size plus at most one batch: the stage that
    /// rejects waits for room there, as it waits on its primary outputs. It used to append
    /// whatever the stage rejected, so the buffer grew to the whole input.
    @Test(arguments: [ClockMode.virtual, .replay])
    func aBlockBufferOnDeadLettersHoldsItsSize(clock: ClockMode) throws {
        let registry = try PluginRegistry(
            StandardPlugins.all + [.transform(RefuseTransform.self), .sink(GatedSink.self)])
        let spec = try PipelineLoader(registry: registry).load(
            text: """
                clock: \(clock.rawValue)
                speed: 1000
                sources: {gen: {type: generator, signal: counter, rate: 1000, count: 5000}}
                transforms: {no: {type: test.refuse, inputs: [gen], on_error: dead_letter}}
                sinks: {late: {type: test.gated, inputs: [no.dead], buffer: {size: 100, when_full: block}}}
                """, file: "bound.yaml")
        let opened = Atomic(false)
        let gate = Mutex<GatedSink?>(nil)
        // The gate opens once the source is held back, or once it has read everything (the
        // bound was broken: nothing held it back).
        let observer = ClosureObserver { event in
            let release: Bool
            switch event {
            case .backpressure(component: "gen"): release = true
            case .state(component: "gen", from: _, let to): release = to.isFinal
            default: release = false
            }
            if release, !opened.exchange(true, ordering: .acquiringAndReleasing) { gate.withLock { $0 }?.openGate() }
        }
        let run = try PipelineRun(
            spec: spec, options: RunOptions(batchSize: 50, flushInterval: 0), observers: [observer])
        gate.withLock { $0 = run.plugin(named: "late") as? GatedSink }
        try run.start()
        let result = run.wait()
        #expect(result.state == .finished, "\(String(describing: result.error))")
        let late = result.stages.first { $0.name == "late" }
        #expect(late?.samplesIn == 5000, "every dead letter arrives")
        #expect((late?.bufferPeak ?? .max) <= 100 + 50, "peak \(String(describing: late?.bufferPeak))")
    }
}
