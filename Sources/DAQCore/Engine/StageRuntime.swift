import Dispatch
import Synchronization

/// The engine's side of one stage: its queue, its input buffer, its outputs and counters.
///
/// # Thread safety
/// Mutable state other than `stats` is touched only on `queue`, a serial queue targeting the
/// pipeline's shared pool; `stats` sits behind a `Mutex` so the status line can read it.
/// That confinement is what makes the `@unchecked Sendable` conformance safe.
class StageRuntime: @unchecked Sendable {
    let name: String
    let kind: PluginKind
    let queue: DispatchQueue
    /// The run it belongs to, as far as a stage may reach it (``StageHost``); weak, so a late
    /// callback after the run is gone does nothing.
    weak var host: (any StageHost)?
    let stats: Mutex<StageStatistics>
    /// The swift-metrics mirror of `stats`; set by the pipeline before the stage starts.
    var metrics: StageMetrics?
    /// The input buffers of the stages reading this one.
    var outputs: [Inbox] = []
    /// The input buffers of the stages reading this one's dead letters (`<name>.dead`).
    var deadOutputs: [Inbox] = []
    /// What the stage does with samples it cannot process.
    var onError: ErrorPolicy = .stop
    /// Whether its plugin changes the run's step; sinks wait for such stages before they end.
    var changesSteps = false
    /// What the run shares with its stages on the data path: limits, watermark, steps; `nil`
    /// outside a pipeline.
    var links: RunLinks?
    /// The components this one reads (dead-letter inputs by their producer's name).
    var inputNames: [String] = []
    /// The streams this one reads, as its `inputs` name them (`accel`, `accel.dead`), in order.
    var inputStreamOrder: [String] = []
    /// This stage's input buffer; `nil` for sources.
    var inbox: Inbox?
    /// The state last told to observers; the stage's own machine is the truth, this is its echo.
    private(set) var reported = LifecycleState.idle
    var context: StageContext!
    /// What a plugin listens to from outside the data flow.
    let controlHandlers = Mutex<[@Sendable (ControlCommand) -> Void]>([])
    /// What a sink reported undelivered from another thread, waiting to become dead letters
    /// on `queue`; ``finishStage(_:)`` sends what is left, so none is lost at the end.
    let undelivered = Mutex<[(raw: [String], uptime: Double, reason: String)]>([])
    /// The stage's first fatal error: the run's failure when this stage is the first to fail.
    let firstFailure = Mutex<DAQError?>(nil)
    /// Other stages' observers of this stage's output, by ``TapID``; `tapped` spares `emit`
    /// the lock.
    private let taps = Mutex<[(id: TapID, handler: @Sendable (Batch) -> Void)]>([])
    private let tapped = Atomic<Bool>(false)
    /// The plugin's timers and descriptor watches, cancelled when the stage ends.
    let tasks = StageTasks()
    /// The descriptor of what it emits now. Set before the stage starts, then touched on
    /// `queue` only.
    var output: DeclaredStream?
    /// The descriptors of the streams it reads now, by stream name (`accel`, `accel.dead`).
    /// Set before the stage starts, then touched on `queue` only.
    var inputStreams: [String: DeclaredStream] = [:]
    /// What its plugin was built with; a transform describes its output with it again when an
    /// input changes.
    var pluginContext: PluginContext?

    init(name: String, kind: PluginKind, type: String, pool: DispatchQueue) {
        self.name = name
        self.kind = kind
        self.queue = DispatchQueue(label: "daq.stage.\(name)", target: pool)
        self.stats = Mutex(StageStatistics(name: name, kind: kind, type: type))
        queue.setSpecific(key: Self.queueKey, value: ObjectIdentifier(self))
    }

    /// Marks each stage's queue with its stage, so ``StageContext/onStageQueue(_:)`` knows when
    /// it is on it already.
    static let queueKey = DispatchSpecificKey<ObjectIdentifier>()

    /// The counters now, with the input buffer's.
    var statistics: StageStatistics {
        var st = stats.withLock { $0 }
        if let (dropped, buffered, peak) = inbox?.counters {
            st.dropped = dropped
            st.buffered = buffered
            st.bufferPeak = peak
        }
        return st
    }

    /// Starts the plugin; runs on the stage's queue. Subclasses override.
    func startPlugin() throws {}

    /// Undoes a successful start when a later stage could not start. Subclasses override.
    func abortStarted() {}

    /// Ends a stage a reload added whose plugin could not start: the run fails as it would
    /// have at its start. Runs on the stage's queue.
    func abandonStart(_ error: DAQError) {
        noteError(error, fatal: true)
        host?.stageFailed(self)
        finishStage(.failed)
    }

    /// Called when a producer offered into this stage's inbox or a waiter fired.
    func wake() {}

    /// Graceful stop request (sources stop reading). Subclasses override.
    func requestStop() {}

    /// The run was cancelled: sources stop, consumers discard what waits. Subclasses override.
    func requestCancel() {}

    /// The run paused: sources stop reading. Subclasses override.
    func pauseStage() {}

    /// The run resumed after a pause. Subclasses override.
    func resumeStage() {}

    /// A reload replaces or removes this stage: it drains and ends without waiting for the rest
    /// of the run. Runs on `queue`. Subclasses override.
    func retire() {}

    /// The stage's state now, from its machine. Runs on `queue`. Subclasses override.
    var lifecycleState: LifecycleState { reported }

    /// Publishes an event to the run's observers.
    func publish(_ event: PipelineEvent) {
        host?.publish(event)
    }

    /// A batch a plugin emits outside `process` (from a timer), taken on the stage's queue.
    func emitFromPlugin(_ batch: Batch) {
        queue.async { self.emit(batch) }
    }

    /// A plugin failed outside the engine's calls into it. Consumers override to stop taking input.
    func failFromPlugin(_ error: DAQError) {
        queue.async {
            self.noteError(error, fatal: true)
            self.host?.stageFailed(self)
        }
    }

    /// A transform asked to be ticked at `uptime`. Subclasses override.
    func requestTick(atUptime uptime: Double) {}

    /// The run clock goes on after a pause: timers set for run-clock times are set again.
    func clockResumed() {}

    /// The plugin instance this stage runs.
    var plugin: AnyObject? { nil }

    /// The plugin instance this stage runs, by kind. Subclasses override.
    var builtStage: BuiltStage? { nil }

    /// Tells observers the stage is now in `next`, when that is news, by the steps of
    /// ``LifecycleState/route(to:)``. Runs on `queue`.
    func report(_ next: LifecycleState) {
        guard reported != next else { return }
        for step in reported.route(to: next) {
            guard reported.canMove(to: step) else {
                return EngineInvariant.violated("stage \(name): reported \(reported) cannot move to \(step)")
            }
            let was = reported
            reported = step
            stats.withLock { $0.state = step }
            host?.publish(.state(component: name, from: was, to: step))
        }
    }

    /// Sends a batch to every reader, stamping this stage as its stream.
    func emit(_ batch: Batch) {
        guard !batch.isEmpty else { return }
        var b = batch
        b.stream = name
        let declared = declaredOutput(for: b)
        declared.order(&b)
        b.declared = declared
        stats.withLock { $0.samplesOut += b.count }
        metrics?.samplesOut.increment(by: Int64(b.count))
        for out in outputs {
            let dropped = out.offer(b)
            if dropped > 0 { host?.publish(.dropped(component: out.owner, samples: dropped)) }
        }
        notifyTaps(b)
    }

    /// Hands `batch` to this stage's observers: what it emitted, or for a sink what it wrote.
    func notifyTaps(_ batch: Batch) {
        if tapped.load(ordering: .acquiring) {
            for tap in taps.withLock({ $0 }) { tap.handler(batch) }
        }
    }

    /// Takes over `other`'s observers: a tap on a component a reload restarted keeps seeing it.
    func inheritTaps(from other: StageRuntime) {
        let handlers = other.taps.withLock { $0 }
        guard !handlers.isEmpty else { return }
        taps.withLock { $0.append(contentsOf: handlers) }
        tapped.store(true, ordering: .releasing)
    }

    /// Adds an observer of this stage's output; the answer removes it (``removeTap(_:)``).
    @discardableResult
    func addTap(_ handler: @escaping @Sendable (Batch) -> Void) -> TapID {
        let id = TapID.next()
        taps.withLock { $0.append((id, handler)) }
        tapped.store(true, ordering: .releasing)
        return id
    }

    /// Removes an observer: a batch stream whose consumer went away costs the stage nothing more.
    func removeTap(_ id: TapID) {
        taps.withLock { taps in
            taps.removeAll { $0.id == id }
            if taps.isEmpty { tapped.store(false, ordering: .releasing) }
        }
    }

    /// How many observers this stage has.
    var tapCount: Int { taps.withLock { $0.count } }

    /// Passes a command to the plugin's handlers.
    func control(_ command: ControlCommand) {
        for handler in controlHandlers.withLock({ $0 }) { handler(command) }
    }

    /// Whether every reader has room, those of the dead letters included (a `block` buffer on
    /// `<name>.dead` keeps its bound too); when one has not, `resume` is called back once it has.
    func outputsHaveRoom(_ resume: @escaping @Sendable () -> Void) -> Bool {
        for out in outputs where !out.hasRoom(orNotify: resume) { return false }
        for out in deadOutputs where !out.hasRoom(orNotify: resume) { return false }
        return true
    }

    /// `error`, as thrown by this stage's plugin, as the ``DAQError`` the engine reports.
    func daqError(_ error: any Error, code: DAQError.Code = .pluginFailed) -> DAQError {
        DAQError(error, component: name, code: code)
    }

    /// A problem the engine or the plugin describes in words alone.
    func daqError(_ message: String, code: DAQError.Code = .pluginFailed) -> DAQError {
        DAQError(code, message, component: name)
    }

    /// Counts an error and tells observers; a fatal one fails the stage and stops the pipeline.
    func noteError(_ message: String, fatal: Bool) {
        noteError(daqError(message), fatal: fatal)
    }

    /// Counts an error and tells observers; a fatal one fails the stage and stops the pipeline.
    func noteError(_ error: DAQError, fatal: Bool) {
        stats.withLock {
            $0.errors += 1
            if fatal && $0.failure == nil { $0.failure = error.message }
        }
        metrics?.errors.increment()
        if fatal {
            firstFailure.withLock { $0 = $0 ?? error }
            publish(.failed(component: name, error: error))
        } else {
            publish(.warning(component: name, message: error.message))
        }
    }

    /// Ends this stage: tells readers no more will come and the pipeline that it is done.
    func finishStage(_ final: LifecycleState) {
        report(final)
        tasks.cancelAll()
        sendUndelivered()
        for out in outputs + deadOutputs { out.closeInput() }
        outputs = []
        deadOutputs = []
        host?.stageFinished(self)
    }
}
