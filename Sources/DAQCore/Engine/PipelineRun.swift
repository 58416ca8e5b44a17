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
    /// Whether a source's batch stayed within the run's limits, or which limit it reached.
    enum Admission { case open, duration, samples }

    struct State {
        var lifecycle = Lifecycle()
        /// Stages counted in and not yet finished; the run ends when it comes back to 0.
        var activeStages = 0
        /// Stages a reload retires, and the group its wait is in.
        var retiring: [ObjectIdentifier: DispatchGroup] = [:]
        var failure: DAQError?
        var cancelled = false
        var admitted = 0
        var maxUptime = 0.0
        /// The run-clock time a stop was asked for: where a stopped replay ends.
        var stoppedAt: Double?
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
    let observers: [any PipelineObserver]
    /// The streams of ``events`` and ``samples(of:buffering:)``, fed by ``publish(_:)``.
    let eventHub = EventHub()
    let state = Mutex(State())
    /// Orders the run's own state changes with their events (see `move(to:)`).
    private let transitions = NSRecursiveLock()
    let done = DispatchGroup()
    /// The stages in pipeline order, and the counters of those a reload retired: one lock, so
    /// a retired stage's counts are never missing from, or counted twice in, ``statistics``.
    let roster = Mutex(Roster())
    /// Every stage now, in pipeline order; a reload adds and retires stages while the run goes.
    var stages: [StageRuntime] { roster.withLock { $0.stages } }
    let pool = DispatchQueue(label: "daq.pool", qos: .userInitiated, attributes: .concurrent)
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
            pipelineName: spec.name, configHash: spec.configHash, configFile: spec.file, startDate: clock.startDate,
            stages: spec.components.count, contentHash: options.contentHash)
        schedule = StepSchedule(spec.steps)
        var byName: [String: StageRuntime] = [:]
        var built: [StageRuntime] = []
        for c in spec.components {
            let stage = try buildStage(c, pipelineName: spec.name)
            byName[c.name] = stage
            built.append(stage)
        }
        for c in spec.components {
            for input in c.inputs {
                let (producerName, dead) = ComponentSpec.producer(of: input)
                guard let producer = byName[producerName], let consumer = byName[c.name], let inbox = consumer.inbox
                else {
                    continue
                }
                if dead { producer.deadOutputs.append(inbox) } else { producer.outputs.append(inbox) }
                inbox.addInput()
            }
        }
        for stage in built { count(in: stage) }
        roster.withLock { $0.stages = built }
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
                    let failure = PipelineStartError(
                        component: "\(kind.section).\(s.name)", message: "\(error)", underlying: error)
                    state.withLock {
                        $0.failure = $0.failure ?? failure.daqError
                        $0.endDate = Date().timeIntervalSince1970
                    }
                    move(to: .failed)
                    // The sinks that started made their directories: their record says why it ends here.
                    recordEnd()
                    throw failure
                }
                started.append(s)
            }
        }
        let all = stages
        state.withLock { $0.activeStages = all.count }
        for _ in all { done.enter() }
        for s in all { s.queue.sync { s.move(to: .running) } }
        move(to: .running)
        if let duration = options.duration, clock.mode != .virtual { armDurationStop(at: duration) }
        for s in stages { (s as? SourceStage)?.begin() }
    }

    /// Stops gracefully: sources stop, buffers drain, sinks flush and close.
    public func stop() {
        stop(sparing: nil)
    }

    /// Stops every source but `spared`, which ends by itself after emitting what it admitted.
    func stop(sparing spared: StageRuntime?) {
        let proceed = state.withLock { s -> Bool in
            guard !s.lifecycle.state.isFinal, s.lifecycle.state != .stopping else { return false }
            return true
        }
        guard proceed else { return }
        let now = clock.now()
        state.withLock { if $0.stoppedAt == nil { $0.stoppedAt = now } }
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

    /// Pauses: the run clock holds, so a replay stops where it is and `--duration` waits;
    /// sources stop reading (a live source's samples meanwhile are dropped and counted, or kept
    /// with `pause: buffer`); what is already in flight keeps draining. Every sink marks the
    /// pause, and the resume, in its output.
    public func pause() {
        guard move(to: .paused) else { return }
        clock.hold()
        for s in stages where s.kind == .source { s.queue.async { s.move(to: .paused) } }
    }

    /// Resumes: the clock goes on from where it held, and a replay at its recorded spacing.
    public func resume() {
        guard move(to: .running) else { return }
        clock.release()
        for case let s as SourceStage in stages {
            s.queue.async { s.move(to: .running) }
            s.resumeFromPause()
        }
        for s in stages where s.kind != .source { s.clockResumed() }
        if let duration = options.duration, clock.mode != .virtual { armDurationStop(at: duration) }
    }

    /// Stops the run when its clock reaches `duration`; a pause moves that moment on.
    private func armDurationStop(at duration: Double) {
        guard !clock.isHeld, let deadline = clock.deadline(forUptime: duration) else { return }
        pool.asyncAfter(deadline: deadline) { [weak self] in
            guard let self, !self.clock.isHeld else { return }
            guard self.clock.now() >= duration else { return self.armDurationStop(at: duration) }
            // The run ends at `duration` on its clock, not when the timer ran (a millisecond
            // late on a busy machine): sources close what they hold open at that uptime.
            self.state.withLock { if $0.stoppedAt == nil { $0.stoppedAt = duration } }
            self.stop()
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

    /// Every stage's counters now, in pipeline order. A component a reload restarted shows the
    /// sum of its instances; one it removed keeps its own row at the end.
    public var statistics: [StageStatistics] {
        roster.withLock { r in
            var rows: [StageStatistics] = []
            var index: [String: Int] = [:]
            // Later in the list means newer (a restarted component's new instance follows the old).
            for row in r.stages.map(\.statistics) {
                if let i = index[row.name] {
                    rows[i] = row.absorbing(rows[i])
                } else {
                    index[row.name] = rows.count
                    rows.append(row)
                }
            }
            let live = rows.count
            // Retired instances, oldest first, are older than any live one of the same name.
            for row in r.retired.compactMap(\.final) {
                if let i = index[row.name] {
                    rows[i] = i < live ? rows[i].absorbing(row) : row.absorbing(rows[i])
                } else {
                    index[row.name] = rows.count
                    rows.append(row)
                }
            }
            return rows
        }
    }

    /// Sends `command` to the stages that listen (``StageContext/onControl(_:)``): all of them,
    /// or the one it names.
    public func send(_ command: ControlCommand) {
        for s in stages where command.target == nil || command.target == s.name { s.control(command) }
    }

    /// Whether any started stage listens for commands (``StageContext/onControl(_:)``): a run
    /// with none cannot act on `daq run --trigger`, and says so rather than ignore the key.
    public var listensForCommands: Bool {
        stages.contains { !$0.controlHandlers.withLock(\.isEmpty) }
    }

    /// The newest instance of component `name` (during a reload the one replacing the old).
    func stage(named name: String) -> StageRuntime? {
        stages.last { $0.name == name }
    }

    /// The names of the components, in pipeline order.
    public var componentNames: [String] {
        var seen: Set<String> = []
        return stages.map(\.name).filter { seen.insert($0).inserted }
    }

    /// Makes `path` the run's step from now on the run clock, as a scanned step card does.
    public func changeStep(to path: String) {
        schedule.add(StepSpec(path: path, at: clock.now()))
    }

    /// The plugin instance of component `name`, for tests and embedding applications.
    public func plugin(named name: String) -> AnyObject? {
        stage(named: name)?.plugin
    }

    /// The pipeline's state now.
    public var lifecycleState: LifecycleState { state.withLock { $0.lifecycle.state } }

    func result() -> RunResult {
        let (lifecycle, failure, end) = state.withLock { ($0.lifecycle.state, $0.failure, $0.endDate) }
        return RunResult(
            state: lifecycle, stages: statistics, startDate: clock.startDate,
            endDate: end ?? Date().timeIntervalSince1970, error: failure, recordProblems: recorder.problems)
    }

    /// Writes the final manifests; a manifest that cannot be written is a failure observers hear of.
    func recordEnd(_ result: RunResult? = nil) {
        for problem in recorder.finish(result ?? self.result()) {
            publish(.failed(component: nil, error: DAQError(.recordFailed, problem)))
        }
    }

    /// Writes the run's record as `cancelled` now, for a process about to exit before every
    /// stage has ended (a stage stuck in a write after a second SIGINT).
    /// - Parameter reason: why, kept as the manifest's `failure`.
    public func recordCancelled(_ reason: String) {
        var r = result()
        r.state = .cancelled
        r.error = r.error ?? DAQError(.cancelled, reason)
        recordEnd(r)
    }

    @discardableResult
    func move(to next: LifecycleState) -> Bool {
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
}
