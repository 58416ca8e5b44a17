import Dispatch

/// A stage outside any pipeline: what `DAQTesting` runs a single plugin in. Emitted batches and
/// events go to closures, synchronously, so a harness needs no threads and no waiting.
final class DetachedStage: StageRuntime, @unchecked Sendable {
    let onEmit: @Sendable (Batch) -> Void
    let onEvent: @Sendable (PipelineEvent) -> Void
    let onWake: @Sendable () -> Void

    init(
        name: String, kind: PluginKind, onEmit: @escaping @Sendable (Batch) -> Void,
        onEvent: @escaping @Sendable (PipelineEvent) -> Void, onWake: @escaping @Sendable () -> Void
    ) {
        self.onEmit = onEmit
        self.onEvent = onEvent
        self.onWake = onWake
        super.init(name: name, kind: kind, type: "detached", pool: DispatchQueue(label: "daq.detached"))
    }

    override func publish(_ event: PipelineEvent) { onEvent(event) }
    /// A harness drives its plugin by hand, outside any lifecycle: there is no state to report.
    override func report(_ next: LifecycleState) {}
    override func emitFromPlugin(_ batch: Batch) { onEmit(batch) }
    override func wake() { onWake() }
}

extension StageContext {
    /// A context outside any pipeline, for running one plugin by hand (see `DAQTesting`).
    ///
    /// - Parameters:
    ///   - name: The component name the plugin sees.
    ///   - clock: The run clock; a virtual one for tests.
    ///   - steps: The step schedule.
    ///   - onEmit: Receives batches the plugin emits outside `process`.
    ///   - onEvent: Receives the events the plugin reports.
    ///   - onWake: Called when a live source says it has data again (from any thread).
    public static func detached(
        name: String, kind: PluginKind, clock: RunClock, steps: [StepSpec] = [],
        onEmit: @escaping @Sendable (Batch) -> Void = { _ in },
        onEvent: @escaping @Sendable (PipelineEvent) -> Void = { _ in },
        onWake: @escaping @Sendable () -> Void = {}
    ) -> StageContext {
        let stage = DetachedStage(name: name, kind: kind, onEmit: onEmit, onEvent: onEvent, onWake: onWake)
        let context = StageContext(
            stage: stage, pipelineName: "detached", clock: clock, schedule: StepSchedule(steps), runDirectory: nil)
        // In a pipeline the run owns its stages; here nothing else does, so the context keeps its
        // stage alive (a cycle that lives as long as the harness using it).
        context.owner = stage
        stage.context = context
        return context
    }
}
