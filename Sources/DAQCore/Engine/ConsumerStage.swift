import Dispatch

/// The drain loop shared by transforms and sinks: take batches from the inbox while the
/// outputs have room, hand each to `consume`, and end once every input has ended.
class ConsumerStage: StageRuntime, @unchecked Sendable {
    /// Batches handled per turn before yielding the pool to other stages.
    static let batchesPerTurn = 16
    private var ended = false
    private var toldInputEnded = false

    /// Handles one batch. Subclasses override.
    func consume(_ batch: Batch) throws {}

    /// Called once after the last batch. Subclasses override.
    func endOfInput() throws {}

    override func wake() {
        queue.async { self.drain() }
    }

    /// Runs on `queue`.
    func drain() {
        // A stage a reload added is wired before it starts: what arrives waits in the inbox.
        guard !ended, lifecycle.state != .idle, lifecycle.state != .starting else { return }
        if pipeline?.isCancelled == true || lifecycle.state == .failed {
            inbox?.discardAll()
        }
        let deferred = plugin as? any DeferredWork
        let running = pipeline?.isCancelled != true && lifecycle.state != .failed
        for _ in 0..<Self.batchesPerTurn {
            guard outputsHaveRoom({ [weak self] in self?.wake() }) else { return }
            // A plugin with work in flight wakes the stage when it takes input again or is done.
            if running, let deferred, !deferred.acceptsInput { return }
            switch inbox!.take() {
            case .empty:
                return
            case .ended:
                // A sink ends only once no stage can change the step: a step card scanned
                // upstream of another branch still gets its marker here.
                if kind == .sink, running, !retiring,
                    pipeline?.stepsSettled(orNotify: { [weak self] in self?.wake() }) == false
                {
                    return
                }
                if running, let deferred {
                    if !toldInputEnded {
                        toldInputEnded = true
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
        ended = true
        inbox?.discardAll()
        super.abandonStart(error)
    }

    override func failFromPlugin(_ error: DAQError) {
        queue.async {
            guard !self.ended, self.lifecycle.state != .failed else { return }
            self.fail(error)
        }
    }

    private func fail(_ error: DAQError) {
        noteError(error, fatal: true)
        move(to: .failed)
        inbox?.discardAll()
        pipeline?.stageFailed(self)
        // Keep draining so producers are never left waiting; the inbox now refuses everything.
        queue.async { self.drain() }
    }

    private func finish() {
        guard !ended else { return }
        ended = true
        if lifecycle.state == .failed {
            finishStage(.failed)
            return
        }
        do {
            try endOfInput()
            finishStage(pipeline?.isCancelled == true ? .cancelled : .finished)
        } catch {
            noteError(daqError(error), fatal: true)
            pipeline?.stageFailed(self)
            finishStage(.failed)
        }
    }
}

/// Runs a ``Transform``, ticking it on the run clock when it asks.
final class TransformStage: ConsumerStage, @unchecked Sendable {
    private(set) var transform: any Transform
    /// The requested tick time, if any.
    private var tickAt: Double?
    private var timer: (any DispatchSourceTimer)?

    init(name: String, type: String, transform: any Transform, pool: DispatchQueue) {
        self.transform = transform
        super.init(name: name, kind: .transform, type: type, pool: pool)
    }

    override var plugin: AnyObject? { transform }

    override func startPlugin() throws {
        try transform.start(context: context)
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
        var b = batch
        try transform.process(&b, context: context)
        emit(b)
    }

    /// Virtual and replay time: the tick fires once data at or past it arrives, or at the end.
    /// A replay's clock passing the tick proves nothing about the data: samples before it may
    /// still be on their way through the stages upstream, and a tick fired then would close a
    /// window without them. Only live data (the realtime clock) needs a timer to close a window
    /// that no later sample closes.
    override func requestTick(atUptime uptime: Double) {
        tickAt = uptime
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
            if let t = self.tickAt, !self.lifecycle.state.isFinal { self.requestTick(atUptime: t) }
        }
    }

    private func timerFired() {
        guard let t = tickAt, !lifecycle.state.isFinal else { return }
        // A pause holds the clock: the tick waits for the time it asked for.
        guard context.clock.now() >= t else {
            requestTick(atUptime: t)
            return
        }
        do {
            try fireTick(at: t)
        } catch {
            noteError(daqError(error), fatal: true)
        }
    }

    private func fireTick(at t: Double) throws {
        tickAt = nil
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
        tickAt = nil
        do {
            emit(try transform.finish(context: context))
            transform = new
            try new.start(context: context)
        } catch {
            noteError(daqError(error, code: .reloadFailed).prefixed("reload: "), fatal: true)
            pipeline?.stageFailed(self)
            throw error
        }
    }

    override func endOfInput() throws {
        timer?.cancel()
        timer = nil
        // Cancelled too, the transform finishes, so it closes what it opened (an HTTP client, a
        // program); what it still held is discarded.
        let rest = try transform.finish(context: context)
        if pipeline?.isCancelled != true { emit(rest) }
    }
}
