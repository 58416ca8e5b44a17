import Dispatch
import Foundation
import Synchronization

/// One run of a validated pipeline: builds the stages, starts them, stops them, and reports.
///
/// ```swift
/// let run = try PipelineRun(spec: spec, observers: [ClosureObserver { print($0) }])
/// try run.start()
/// let result = run.wait()
/// ```
///
/// # Thread safety
/// Control methods may be called from any thread (a signal handler's queue among them); the
/// run's own state sits behind one `Mutex`.
public final class PipelineRun: Sendable {
    enum Admission { case open, reached }

    private struct State {
        var lifecycle = Lifecycle()
        var finishedStages = 0
        var failure: String?
        var cancelled = false
        var paused = false
        var admitted = 0
        var maxUptime = 0.0
        var stepsSeen: Set<StepSpec> = []
        var endDate: Double?
        /// Stages that may still change the step, and sinks waiting for them to end.
        var stepChangers = 0
        var stepWaiters: [@Sendable () -> Void] = []
    }

    /// The validated pipeline.
    public let spec: PipelineSpec
    /// The configuration last applied by ``reload(_:)``; the lock also keeps reloads one at a time.
    let reloading = Mutex<PipelineSpec?>(nil)
    /// The options it runs with.
    public let options: RunOptions
    /// The run clock, started at ``start()``.
    public let clock: RunClock
    private let observers: [any PipelineObserver]
    private let state = Mutex(State())
    /// Orders the run's own state changes with their events (see `move(to:)`).
    private let transitions = NSRecursiveLock()
    private let done = DispatchGroup()
    nonisolated(unsafe) private var stages: [StageRuntime] = []
    private let pool = DispatchQueue(label: "daq.pool", qos: .userInitiated, attributes: .concurrent)
    /// The run directories and files sinks write, and their manifests.
    public let recorder: RunRecorder
    /// The run's steps, the pipeline's and those stages add.
    public let schedule: StepSchedule

    /// Builds every stage; plugin constructors run here.
    /// - Throws: ``PipelineStartError`` when a plugin cannot be built.
    public init(spec: PipelineSpec, options: RunOptions = RunOptions(), observers: [any PipelineObserver] = []) throws {
        self.spec = spec
        self.options = options
        self.observers = observers
        self.clock = RunClock(mode: spec.clock, speed: spec.speed)
        self.recorder = RunRecorder(
            pipelineName: spec.name, configHash: spec.configHash, configFile: spec.file, startDate: clock.startDate)
        schedule = StepSchedule(spec.steps)
        var byName: [String: StageRuntime] = [:]
        for c in spec.components {
            let context = PluginContext(
                componentName: c.name, pipelineName: spec.name, baseDirectory: "", clock: spec.clock)
            let built: BuiltStage
            do {
                built = try c.plugin.makeStage(c.configuration, context: context)
            } catch {
                throw PipelineStartError(component: "\(c.kind.section).\(c.name)", message: "\(error)")
            }
            let stage: StageRuntime
            switch built {
            case .source(let s):
                stage = SourceStage(name: c.name, type: c.plugin.typeName, source: s, batchSize: options.batchSize, pool: pool)
            case .transform(let t):
                stage = TransformStage(name: c.name, type: c.plugin.typeName, transform: t, pool: pool)
            case .sink(let s):
                stage = SinkStage(
                    name: c.name, type: c.plugin.typeName, sink: s, flushInterval: options.flushInterval, pool: pool)
            }
            let metrics = StageMetrics(pipeline: spec.name, component: c.name, kind: c.kind, type: c.plugin.typeName)
            stage.metrics = metrics
            if c.kind != .source {
                stage.inbox = Inbox(
                    owner: c.name, capacity: c.buffer.size, policy: c.buffer.whenFull, metrics: metrics
                ) { [weak stage] in
                    stage?.wake()
                }
                stage.stats.withLock { $0.bufferCapacity = c.buffer.size }
                metrics.bufferCapacity.record(c.buffer.size)
            }
            stage.onError = c.onError
            stage.changesSteps = c.plugin.changesSteps
            if c.plugin.changesSteps { state.withLock { $0.stepChangers += 1 } }
            stage.context = StageContext(
                stage: stage, pipelineName: spec.name, clock: clock, schedule: schedule, runDirectory: options.runDirectory)
            byName[c.name] = stage
            stages.append(stage)
        }
        for c in spec.components {
            for input in c.inputs {
                let dead = input.hasSuffix(ComponentSpec.deadLetterSuffix)
                let producerName = dead ? String(input.dropLast(ComponentSpec.deadLetterSuffix.count)) : input
                guard let producer = byName[producerName], let consumer = byName[c.name], let inbox = consumer.inbox else {
                    continue
                }
                if dead { producer.deadOutputs.append(inbox) } else { producer.outputs.append(inbox) }
                inbox.addInput()
            }
        }
        for s in stages { s.pipeline = self }
    }

    /// Starts sinks, then transforms, then sources.
    /// - Throws: ``PipelineStartError`` when a plugin cannot start (a file cannot be opened);
    ///   stages already started are closed again.
    public func start() throws {
        move(to: .starting)
        var started: [StageRuntime] = []
        for kind in [PluginKind.sink, .transform, .source] {
            for s in stages where s.kind == kind {
                let result: Result<Void, any Error> = s.queue.sync {
                    s.move(to: .starting)
                    return Result { try s.startPlugin() }
                }
                if case .failure(let error) = result {
                    for other in started { other.queue.sync { other.abortStarted() } }
                    move(to: .failed)
                    throw PipelineStartError(component: "\(kind.section).\(s.name)", message: "\(error)")
                }
                started.append(s)
            }
        }
        for _ in stages { done.enter() }
        for s in stages { s.queue.sync { s.move(to: .running) } }
        move(to: .running)
        if let duration = options.duration, clock.mode != .virtual {
            pool.asyncAfter(deadline: .now() + duration / clock.speed) { [weak self] in self?.stop() }
        }
        for s in stages { (s as? SourceStage)?.begin() }
    }

    /// Stops gracefully: sources stop, buffers drain, sinks flush and close.
    public func stop() {
        stop(sparing: nil)
    }

    /// Stops every source but `spared`, which ends by itself after emitting what it admitted.
    private func stop(sparing spared: StageRuntime?) {
        let proceed = state.withLock { s -> Bool in
            guard !s.lifecycle.state.isFinal, s.lifecycle.state != .stopping else { return false }
            return true
        }
        guard proceed else { return }
        move(to: .stopping)
        for s in stages where s.kind == .source && s !== spared { s.requestStop() }
    }

    /// Stops at once: sources stop, buffered samples are discarded, sinks close.
    public func cancel() {
        state.withLock { $0.cancelled = true }
        for s in stages {
            if s.kind == .source { s.requestStop() } else { s.wake() }
        }
    }

    /// Pauses sources; what is already in flight keeps draining.
    public func pause() {
        guard move(to: .paused) else { return }
        state.withLock { $0.paused = true }
        for s in stages where s.kind == .source { s.queue.async { s.move(to: .paused) } }
    }

    /// Resumes paused sources.
    public func resume() {
        guard move(to: .running) else { return }
        state.withLock { $0.paused = false }
        for case let s as SourceStage in stages {
            s.queue.async { s.move(to: .running) }
            s.resumeFromPause()
        }
    }

    /// Blocks until every stage has ended, and reports how the run went.
    public func wait() -> RunResult {
        done.wait()
        return result()
    }

    /// Calls `body` once the run has ended, on a pool queue.
    public func onFinish(_ body: @escaping @Sendable (RunResult) -> Void) {
        done.notify(queue: pool) { body(self.result()) }
    }

    /// Every stage's counters now, in pipeline order.
    public var statistics: [StageStatistics] {
        stages.map { s in
            var st = s.stats.withLock { $0 }
            if let (dropped, buffered, peak) = s.inbox?.counters {
                st.dropped = dropped
                st.buffered = buffered
                st.bufferPeak = peak
            }
            return st
        }
    }

    /// Sends `command` to the stages that listen (``StageContext/onControl(_:)``): all of them,
    /// or the one it names.
    public func send(_ command: ControlCommand) {
        for s in stages where command.target == nil || command.target == s.name { s.control(command) }
    }

    func stage(named name: String) -> StageRuntime? {
        stages.first { $0.name == name }
    }

    /// The names of the components, in pipeline order.
    public var componentNames: [String] { stages.map(\.name) }

    /// Makes `path` the run's step from now on the run clock, as a scanned step card does.
    public func changeStep(to path: String) {
        schedule.add(StepSpec(path: path, at: clock.now()))
    }

    /// The plugin instance of component `name`, for tests and embedding applications.
    public func plugin(named name: String) -> AnyObject? {
        stages.first { $0.name == name }?.plugin
    }

    /// The pipeline's state now.
    public var lifecycleState: LifecycleState { state.withLock { $0.lifecycle.state } }

    private func result() -> RunResult {
        let (lifecycle, failure, end) = state.withLock { ($0.lifecycle.state, $0.failure, $0.endDate) }
        return RunResult(
            state: lifecycle, stages: statistics, startDate: clock.startDate,
            endDate: end ?? Date().timeIntervalSince1970, failure: failure)
    }

    @discardableResult
    private func move(to next: LifecycleState) -> Bool {
        // A stop and the last stage finishing can move the run at the same moment from two
        // threads; the transition and its event go out together, so observers see the states
        // in the order they were taken (stopping before finished). Recursive: an observer may
        // stop the run from its callback.
        transitions.lock()
        defer { transitions.unlock() }
        let from = state.withLock { s -> LifecycleState? in
            let from = s.lifecycle.state
            return s.lifecycle.move(to: next) ? from : nil
        }
        guard let from else { return false }
        publish(.state(component: nil, from: from, to: next))
        return true
    }

    // MARK: - Called by stages

    var isCancelled: Bool { state.withLock { $0.cancelled } }
    var isPaused: Bool { state.withLock { $0.paused } }

    func publish(_ event: PipelineEvent) {
        for o in observers { o.handle(event) }
    }

    /// Applies `--max-samples` and `--duration` to a batch a source has read.
    func admit(_ batch: inout Batch, from stage: SourceStage) -> Admission {
        var reached = false
        if let duration = options.duration, let cut = batch.uptimes.firstIndex(where: { $0 >= duration }) {
            batch = batch.slice(0..<cut)
            reached = true
        }
        let (allowed, stopAll) = state.withLock { s -> (Int, Bool) in
            var allowed = batch.count
            if let max = options.maxSamples { allowed = Swift.min(allowed, Swift.max(0, max - s.admitted)) }
            s.admitted += allowed
            return (allowed, options.maxSamples.map { s.admitted >= $0 } ?? false)
        }
        if allowed < batch.count { batch = batch.slice(0..<allowed) }
        if stopAll {
            pool.async { [weak self, weak stage] in self?.stop(sparing: stage) }
            return .reached
        }
        return reached ? .reached : .open
    }

    /// A source emitted samples up to `uptime` (read-ahead samples not yet due do not count).
    func noteEmitted(upTo uptime: Double) {
        state.withLock { if uptime > $0.maxUptime { $0.maxUptime = uptime } }
    }

    /// The latest sample time any source has emitted.
    var emittedWatermark: Double { state.withLock { $0.maxUptime } }

    /// The latest sample time emitted, for the stop marker.
    func finalUptime() -> Double {
        let maxUptime = state.withLock { $0.maxUptime }
        return clock.mode == .virtual ? maxUptime : Swift.max(maxUptime, clock.now())
    }

    /// Publishes each step change once, whichever sink reaches it first.
    func noteStep(_ change: (String, Double)) {
        let isNew = state.withLock { $0.stepsSeen.insert(StepSpec(path: change.0, at: change.1)).inserted }
        if isNew { publish(.stepChanged(path: change.0, uptime: change.1)) }
    }

    func stageFailed(_ stage: StageRuntime) {
        let message = stage.stats.withLock { $0.failure } ?? "failed"
        state.withLock { if $0.failure == nil { $0.failure = "\(stage.name): \(message)" } }
        stop()
    }

    /// Whether no stage can change the step any more; when one still can, `resume` is called
    /// once none can.
    func stepsSettled(orNotify resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { s in
            if s.stepChangers == 0 || s.cancelled { return true }
            s.stepWaiters.append(resume)
            return false
        }
    }

    func stageFinished(_ stage: StageRuntime) {
        if stage.changesSteps {
            let waiters = state.withLock { s -> [@Sendable () -> Void] in
                s.stepChangers -= 1
                guard s.stepChangers == 0 else { return [] }
                defer { s.stepWaiters = [] }
                return s.stepWaiters
            }
            for w in waiters { w() }
        }
        let all = state.withLock { s -> Bool in
            s.finishedStages += 1
            if s.finishedStages == stages.count { s.endDate = Date().timeIntervalSince1970 }
            return s.finishedStages == stages.count
        }
        if all {
            let (failed, cancelled) = state.withLock { ($0.failure != nil, $0.cancelled) }
            if lifecycleState == .running || lifecycleState == .paused { move(to: .stopping) }
            move(to: failed ? .failed : cancelled ? .cancelled : .finished)
            recorder.finish(result())
        }
        done.leave()
    }
}
