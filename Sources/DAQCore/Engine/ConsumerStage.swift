import Dispatch

/// The drain loop shared by transforms and sinks: take batches from the inbox while the
/// outputs have room, hand each to `consume`, and end once every input has ended.
class ConsumerStage: StageRuntime, @unchecked Sendable {
    /// Batches handled per turn before yielding the pool to other stages.
    static let batchesPerTurn = 16
    /// The stage's lifecycle and what each phase carries; touched on `queue` only.
    var machine = ConsumerMachine()

    /// Handles one batch. Subclasses override.
    func consume(_ batch: Batch) throws {}

    /// Called once after the last batch (also when cancelled, so the plugin closes what it
    /// opened; ``isCancelling`` tells). Subclasses override.
    func endOfInput() throws {}

    override var lifecycleState: LifecycleState { machine.lifecycle }

    /// Whether the stage ends because the run was cancelled: what it still holds is discarded.
    var isCancelling: Bool { machine.state == .cancelling }

    override func startPlugin() throws {
        run(machine.start())
        do {
            try startConsumer()
        } catch {
            _ = machine.end(.failed)
            throw error
        }
        // The first drain comes with the run's wake, or a reload's: a stage wired before it
        // started may hold input already, which waits for the rest of the run to start.
        if case .illegal(let message) = machine.started() { EngineInvariant.violated(message) }
        report(machine.lifecycle)
    }

    /// Starts the plugin. Subclasses override.
    func startConsumer() throws {}

    override func wake() {
        queue.async { self.run(self.machine.wake()) }
    }

    override func requestCancel() {
        queue.async { self.run(self.machine.cancel()) }
    }

    override func retire() {
        run(machine.retire())
    }

    /// Carries out what the machine answered, after telling observers of a new state. Runs on `queue`.
    func run(_ action: ConsumerMachine.Action) {
        report(machine.lifecycle)
        switch action {
        case .none, .startPlugin: break
        case .drain: drain()
        case .illegal(let message): EngineInvariant.violated(message)
        }
    }

    /// Runs on `queue`.
    func drain() {
        switch machine.state {
        case .idle, .starting, .closing, .ended: return
        case .failing, .cancelling: discard()
        case .running: take()
        }
    }

    /// Failing or cancelled: what arrives is thrown away until every input has ended, so no
    /// producer waits for room; then the stage ends.
    private func discard() {
        guard let inbox else { return finish() }
        inbox.discardAll()
        if case .ended = inbox.take() { finish() }
    }

    private func take() {
        let deferred = plugin as? any DeferredWork
        for _ in 0..<Self.batchesPerTurn {
            guard machine.isRunning, let inbox else { return drain() }
            guard outputsHaveRoom({ [weak self] in self?.wake() }) else { return }
            // A plugin with work in flight wakes the stage when it takes input again or is done.
            if let deferred, !deferred.acceptsInput { return }
            switch inbox.take() {
            case .empty:
                return
            case .ended:
                guard case .running(let r) = machine.state else { return drain() }
                // A sink ends only once no stage can change the step: a step card scanned
                // upstream of another branch still gets its marker here.
                if kind == .sink, !r.retiring, links?.steps.settled(orNotify: { [weak self] in self?.wake() }) == false
                {
                    return
                }
                if let deferred {
                    if !r.toldInputEnded {
                        machine.updateRunning { $0.toldInputEnded = true }
                        deferred.inputEnded()
                    }
                    if deferred.hasPendingWork { return }
                    // Output it emitted is queued behind this turn: end after it has gone out.
                    queue.async { self.finish() }
                    return
                }
                finish()
                return
            case .batch(let batch):
                stats.withLock { $0.samplesIn += batch.count }
                metrics?.samplesIn.increment(by: Int64(batch.count))
                do {
                    try consume(batch)
                } catch {
                    // on_error decides: stop fails the stage, skip and dead_letter go on.
                    guard onError != .stop else {
                        fail(daqError(error))
                        return
                    }
                    reject(batch, reason: "\(error)")
                }
            }
        }
        queue.async { self.drain() }
    }

    override func abandonStart(_ error: DAQError) {
        inbox?.discardAll()
        super.abandonStart(error)
    }

    override func failFromPlugin(_ error: DAQError) {
        queue.async {
            guard self.machine.isRunning || self.isCancelling else { return }
            self.fail(error)
        }
    }

    /// Fails the stage: the error is reported, the run told, and the input discarded from now on.
    func fail(_ error: DAQError) {
        noteError(error, fatal: true)
        host?.stageFailed(self)
        // Keep draining so producers are never left waiting; the inbox now refuses everything.
        run(machine.fail())
    }

    private func finish() {
        let final: LifecycleState
        switch machine.state {
        case .idle, .starting, .closing, .ended: return
        case .failing: final = .failed
        case .running, .cancelling:
            do {
                try endOfInput()
                final = isCancelling ? .cancelled : .finished
            } catch {
                noteError(daqError(error), fatal: true)
                host?.stageFailed(self)
                final = .failed
            }
        }
        // A plugin whose finish completes later keeps the stage open, counting what it reports.
        if awaitDeferredEnd(final, then: { [self] in end($0) }) {
            run(machine.close(final))
            return
        }
        end(final)
    }

    private func end(_ final: LifecycleState) {
        if case .illegal(let message) = machine.end(final) { EngineInvariant.violated(message) }
        finishStage(final)
    }
}

/// Runs a ``Transform``, ticking it on the run clock when it asks.
final class TransformStage: ConsumerStage, @unchecked Sendable {
    private(set) var transform: any Transform
    private var timer: (any DispatchSourceTimer)?

    init(name: String, type: String, transform: any Transform, pool: DispatchQueue) {
        self.transform = transform
        super.init(name: name, kind: .transform, type: type, pool: pool)
    }

    override var plugin: AnyObject? { transform }

    override var builtStage: BuiltStage? { .transform(transform) }

    override func startConsumer() throws {
        try transform.start(context: context)
    }

    /// The requested tick time, if any.
    private var tickAt: Double? {
        guard case .running(let r) = machine.state else { return nil }
        return r.tickAt
    }

    /// What a transform that changes the step emits carries the step in force at each sample's
    /// time. Its source stamped the samples when it read them, before this stage had seen the
    /// step card among them; the stage sees every card before the samples after it, so from
    /// here on each sample's step is the same whatever the clock and the batch boundaries.
    override func emit(_ batch: Batch) {
        guard changesSteps, !batch.isEmpty else { return super.emit(batch) }
        var b = batch
        StepSchedule.stamp(&b, steps: context.steps)
        super.emit(b)
    }

    override func consume(_ batch: Batch) throws {
        // Virtual time: a tick is due once data at or past it arrives.
        if let t = tickAt, let first = batch.uptimes.first, first >= t { try fireTick(at: t) }
        if noteInput(batch) { deriveOutput() }
        var b = batch
        try transform.process(&b, context: context)
        emit(b)
        // Realtime: a due tick that waited for data on its way here looks again once it is in.
        if let t = tickAt, context.clock.mode == .realtime, context.clock.isDue(t) {
            fireTickUnlessDataBefore(t)
        }
    }

    /// Virtual and replay time: the tick fires once data at or past it arrives, or at the end.
    /// A replay's clock passing the tick proves nothing about the data: samples before it may
    /// still be on their way through the stages upstream, and a tick fired then would close a
    /// window without them. Only live data (the realtime clock) needs a timer to close a window
    /// that no later sample closes; and while a source upstream reads ahead of the clock (a
    /// recording or generator at the realtime clock), the timer defers to that data as a replay
    /// does, so a loaded machine gives the same windows.
    override func requestTick(atUptime uptime: Double) {
        machine.setTick(uptime)
        guard context.clock.mode == .realtime, let deadline = context.clock.deadline(forUptime: uptime) else { return }
        if timer == nil {
            let t = DispatchSource.makeTimerSource(queue: queue)
            t.setEventHandler { [weak self] in self?.timerFired() }
            t.activate()
            timer = t
        }
        timer!.schedule(deadline: deadline, leeway: .milliseconds(1))
    }

    override func clockResumed() {
        queue.async {
            if let t = self.tickAt { self.requestTick(atUptime: t) }
        }
    }

    private func timerFired() {
        guard let t = tickAt else { return }
        // A pause holds the clock: the tick waits for the time it asked for.
        guard context.clock.now() >= t else {
            requestTick(atUptime: t)
            return
        }
        fireTickUnlessDataBefore(t)
    }

    /// Fires the tick at `t` unless samples stamped before it are still on their way here: held
    /// by a source upstream (a recording or generator late on a busy machine, a live source with
    /// more to read) or waiting in an input buffer between. Those come first: the tick waits for
    /// the source to pass `t` or for this stage's input, and then looks again.
    private func fireTickUnlessDataBefore(_ t: Double) {
        if inbox?.holdsData(before: t) == true { return }
        var holding: SourceStage?
        for stage in upstream() {
            if let source = stage as? SourceStage {
                if source.holdsSamples(before: t) { holding = source }
            } else if stage.inbox?.holdsData(before: t) == true {
                return
            }
        }
        if let holding {
            holding.notifyWhenPast(t, for: ObjectIdentifier(self)) { [weak self] in
                guard let stage = self else { return }
                stage.queue.async { stage.tickWaitedFor(t) }
            }
            return
        }
        do {
            try fireTick(at: t)
        } catch {
            // As a throwing `process` would: the policy decides, and `stop` tells the run.
            guard onError != .stop else { return fail(daqError(error)) }
            noteError(daqError(error), fatal: false)
        }
    }

    /// A source this stage's tick waited for has passed it. Runs on `queue`.
    private func tickWaitedFor(_ t: Double) {
        guard tickAt == t, context.clock.isDue(t) else { return }
        fireTickUnlessDataBefore(t)
    }

    /// The stages whose samples reach this one, through any between. Asked of the run when a
    /// realtime tick is due, never per batch, so a reload's new stages count.
    private func upstream() -> [StageRuntime] {
        guard let run = host else { return [] }
        var seen = Set<String>()
        var found: [StageRuntime] = []
        var names = inputNames
        while let name = names.popLast() {
            guard seen.insert(name).inserted, let stage = run.stage(named: name) else { continue }
            found.append(stage)
            names += stage.inputNames
        }
        return found
    }

    /// Describes the output again from what the inputs are now: an input's descriptor changed,
    /// or a reload put a new transform in. An unchanged answer keeps the descriptor downstream
    /// stages know, so they do not derive theirs again.
    private func deriveOutput() {
        guard let pluginContext else { return }
        do {
            changeOutput(to: DeclaredStream(try transform.describe(input: mergedInput, context: pluginContext)))
        } catch {
            noteError("cannot describe its output after its input changed: \(error)", fatal: false)
        }
    }

    private func fireTick(at t: Double) throws {
        machine.setTick(nil)
        emit(try transform.tick(now: t, context: context))
    }

    /// Puts `new` in the old transform's place between two batches, on the stage's queue:
    /// the old one's `finish` output goes downstream first, so nothing it held is lost, and the
    /// input buffer is left as it is.
    /// - Throws: when the old one cannot finish or the new one cannot start; the stage has then failed.
    func replaceTransform(with new: any Transform) throws {
        dispatchPrecondition(condition: .onQueue(queue))
        timer?.cancel()
        timer = nil
        machine.setTick(nil)
        do {
            emit(try transform.finish(context: context))
            transform = new
            try new.start(context: context)
            deriveOutput()
        } catch {
            noteError(daqError(error, code: .reloadFailed).prefixed("reload: "), fatal: true)
            host?.stageFailed(self)
            throw error
        }
    }

    override func endOfInput() throws {
        timer?.cancel()
        timer = nil
        // Cancelled too, the transform finishes, so it closes what it opened (an HTTP client, a
        // program); what it still held is discarded.
        let rest = try transform.finish(context: context)
        if !isCancelling { emit(rest) }
    }
}
