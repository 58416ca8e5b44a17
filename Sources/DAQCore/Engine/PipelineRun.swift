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
    /// The run's lifecycle, and the run-level events and end-of-run work waiting to go out in
    /// the order the transitions were taken. Whoever finds no delivery under way delivers, outside
    /// the lock; the others only queue: no observer runs under a lock, and an observer may stop the
    /// run from its callback.
    struct Control {
        var machine = RunMachine()
        var outbox: [Outgoing] = []
        var delivering = false
    }

    /// What the run sends after a transition.
    enum Outgoing {
        case event(PipelineEvent)
        case work(@Sendable () -> Void)
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
    let state = Mutex(Control())
    let done = DispatchGroup()
    /// The stages in pipeline order, and the counters of those a reload retired: one lock, so
    /// a retired stage's counts are never missing from, or counted twice in, ``statistics``.
    let roster = Mutex(Roster())
    /// The first pass running now, if any: a stop or cancel during ``start()`` cancels it.
    let firstPassUnderWay = Mutex<PipelineRun?>(nil)
    /// Every stage now, in pipeline order; a reload adds and retires stages while the run goes.
    var stages: [StageRuntime] { roster.withLock { $0.stages } }
    let pool = DispatchQueue(label: "daq.pool", qos: .userInitiated, attributes: .concurrent)
    /// The run directories and files sinks write, and their manifests.
    public let recorder: RunRecorder
    /// The run's steps, the pipeline's and those stages add.
    public let schedule: StepSchedule
    /// What the stages share on the data path: the run's limits, its watermark, its step gate.
    let links: RunLinks
    /// Counts warnings and notices, so a flood of them reaches observers, `--events` and the
    /// log as the first few and a summary (see ``publish(_:)``).
    let reports = Mutex(ReportLimiter())

    /// Builds every stage; plugin constructors run here.
    /// - Throws: ``PipelineStartError`` when a plugin cannot be built.
    public init(spec: PipelineSpec, options: RunOptions = RunOptions(), observers: [any PipelineObserver] = []) throws {
        self.spec = spec
        self.options = options
        self.observers = observers
        self.clock = RunClock(mode: spec.clock, speed: spec.speed, startDate: options.startDate)
        self.recorder = RunRecorder(
            pipelineName: spec.name, configHash: spec.configHash, configFile: spec.file, startDate: clock.startDate,
            stages: spec.components.count, contentHash: options.contentHash)
        schedule = StepSchedule(spec.steps)
        links = RunLinks(
            limits: RunLimits(duration: options.duration, maxSamples: options.maxSamples),
            watermark: Watermark(clock: clock), steps: StepGate())
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
        try describeStreams(spec.components, stages: byName, adopt: built)
        for stage in built { count(in: stage) }
        roster.withLock { $0.stages = built }
    }

    /// Starts sinks, then transforms, then sources; on the virtual clock, first runs the first
    /// pass of every ``TwoPassTransform`` that needs one.
    /// - Throws: ``PipelineStartError`` when a plugin cannot start (a file cannot be opened);
    ///   stages already started are closed again.
    public func start() throws {
        if case .illegal = transition({ $0.start() }, reportIllegal: false) {
            throw DAQError(.startFailed, "the run was started already; a run starts once (make a new PipelineRun)")
        }
        do {
            try runFirstPasses()
        } catch {
            let date = Date().timeIntervalSince1970
            if error.daqError.code == .cancelled {
                transition { $0.startCancelled(at: date) }
            } else {
                transition { $0.startFailed(error.daqError, at: date) }
            }
            recordEnd()
            throw error
        }
        var started: [StageRuntime] = []
        for kind in [PluginKind.sink, .transform, .source] {
            for s in stages where s.kind == kind {
                let begun: Result<Void, any Error> = s.queue.sync { Result { try s.startPlugin() } }
                // A start that completes later (a broker's first answer) is waited for here, on
                // the caller's thread, never on the pool.
                let result = begun.flatMap { s.tasks.awaitStart() }
                if case .failure(let error) = result {
                    if case .success = begun { s.queue.sync { s.abortStarted() } }
                    for other in started { other.queue.sync { other.abortStarted() } }
                    let failure = PipelineStartError(
                        component: "\(kind.section).\(s.name)", message: "\(error)", underlying: error)
                    transition { $0.startFailed(failure.daqError, at: Date().timeIntervalSince1970) }
                    // The sinks that started made their directories: their record says why it ends here.
                    recordEnd()
                    throw failure
                }
                started.append(s)
            }
        }
        let all = stages
        for _ in all { done.enter() }
        tell(transition { $0.started(stages: all.count) })
        if let duration = options.duration, clock.mode != .virtual { armDurationStop(at: duration) }
        for s in stages { (s as? SourceStage)?.begin() }
    }

    /// Stops gracefully: sources stop, buffers drain, sinks flush and close.
    public func stop() {
        stop(sparing: nil)
    }

    /// Stops every source but `spared`, which ends by itself after emitting what it admitted.
    func stop(sparing spared: StageRuntime?) {
        tell(transition { $0.stop() }, sparing: spared)
        // Half a first pass fits nothing: a stop asked for during one ends the run unstarted.
        firstPassUnderWay.withLock { $0 }?.cancel()
    }

    /// Stops at once: sources stop, buffered samples are discarded, sinks close. During a first
    /// pass (in ``start()``) it cancels that pass, and `start()` throws a `cancelled` error.
    public func cancel() {
        tell(transition { $0.cancel() })
        firstPassUnderWay.withLock { $0 }?.cancel()
    }

    /// Sends the stages what a transition asks of them, as messages on their queues.
    func tell(_ action: RunMachine.Action, sparing spared: StageRuntime? = nil) {
        let all = stages
        switch action {
        case .none, .illegal: break
        case .stop:
            links.watermark.noteStop(at: clock.now())
            for s in all where s.kind == .source && s !== spared { s.requestStop() }
        case .cancel:
            // Consumers hear first: a source that ends on its cancel closes their input, and they
            // must discard what waits rather than take it as a normal end.
            for s in all where s.kind != .source { s.requestCancel() }
            for s in all where s.kind == .source { s.requestCancel() }
        case .pause:
            clock.hold()
            for s in all where s.kind == .source { s.pauseStage() }
        case .resume:
            clock.release()
            for s in all where s.kind == .source { s.resumeStage() }
            for s in all where s.kind != .source { s.clockResumed() }
            if let duration = options.duration, clock.mode != .virtual { armDurationStop(at: duration) }
        }
    }

    /// Pauses: the run clock holds, so a replay stops where it is and `--duration` waits;
    /// sources stop reading (a live source's samples meanwhile are dropped and counted, or kept
    /// with `pause: buffer`); what is already in flight keeps draining. Every sink marks the
    /// pause, and the resume, in its output.
    public func pause() {
        tell(transition { $0.pause() })
    }

    /// Resumes: the clock goes on from where it held, and a replay at its recorded spacing.
    public func resume() {
        tell(transition { $0.resume() })
    }

    /// Stops the run when its clock reaches `duration`; a pause moves that moment on.
    private func armDurationStop(at duration: Double) {
        guard !clock.isHeld, let deadline = clock.deadline(forUptime: duration) else { return }
        pool.asyncAfter(deadline: deadline) { [weak self] in
            guard let self, !self.clock.isHeld else { return }
            guard self.clock.now() >= duration else { return self.armDurationStop(at: duration) }
            // The run ends at `duration` on its clock, not when the timer ran (a millisecond
            // late on a busy machine): sources close what they hold open at that uptime.
            self.links.watermark.noteStop(at: duration)
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
    public var lifecycleState: LifecycleState { state.withLock { $0.machine.lifecycle } }

    func result() -> RunResult {
        let (lifecycle, failure, end) = state.withLock {
            ($0.machine.lifecycle, $0.machine.failure, $0.machine.endDate)
        }
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

    /// Takes one input of the run's machine and queues the state events it makes, with `then`
    /// after them; then delivers what is queued unless a delivery is under way elsewhere.
    @discardableResult
    func transition(
        _ input: (inout RunMachine) -> RunMachine.Action, reportIllegal: Bool = true,
        then: (RunMachine) -> [Outgoing] = { _ in [] }
    ) -> RunMachine.Action {
        let action = state.withLock { c -> RunMachine.Action in
            let from = c.machine.lifecycle
            let action = input(&c.machine)
            let to = c.machine.lifecycle
            if from != to {
                var was = from
                for step in from.route(to: to) {
                    c.outbox.append(.event(.state(component: nil, from: was, to: step)))
                    was = step
                }
            }
            c.outbox += then(c.machine)
            return action
        }
        deliver()
        if reportIllegal, case .illegal(let message) = action { EngineInvariant.violated(message) }
        return action
    }

    /// Sends what transitions queued, in order, outside the lock; returns at once when another
    /// thread is already sending (it sends this too).
    private func deliver() {
        let claimed = state.withLock { c -> Bool in
            guard !c.delivering, !c.outbox.isEmpty else { return false }
            c.delivering = true
            return true
        }
        guard claimed else { return }
        while true {
            let next = state.withLock { c -> [Outgoing] in
                defer { c.outbox = [] }
                if c.outbox.isEmpty { c.delivering = false }
                return c.outbox
            }
            if next.isEmpty { return }
            for o in next {
                switch o {
                case .event(let e): publish(e)
                case .work(let w): w()
                }
            }
        }
    }
}
