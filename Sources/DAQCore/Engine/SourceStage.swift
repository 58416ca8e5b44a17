import Dispatch
import Synchronization

/// Runs a ``Source``: pulls batches while downstream has room, stamps them, and paces them
/// by the run clock with one strict `DispatchSourceTimer`.
final class SourceStage: StageRuntime, @unchecked Sendable {
    let source: any Source
    let batchSize: Int
    /// Read but not yet due.
    private var pending: Batch?
    private var status: SourceStatus = .more
    private var stopRequested = false
    private var pumpScheduled = false
    private var timer: (any DispatchSourceTimer)?
    private let wakeFlag = Mutex(false)
    /// Whether the current wait for room has been reported, so a long wait is one event.
    private var blockedReported = false
    /// Whether ``begin()`` has run. A live source may wake its stage from an I/O callback while
    /// it starts; reading then could end the stage before the run counts it and marks it running.
    private var begun = false

    init(name: String, type: String, source: any Source, batchSize: Int, pool: DispatchQueue) {
        self.source = source
        self.batchSize = batchSize
        super.init(name: name, kind: .source, type: type, pool: pool)
    }

    override var plugin: AnyObject? { source }

    override func startPlugin() throws {
        try source.start(context: context)
    }

    override func abortStarted() {
        source.stop(context: context)
    }

    func begin() {
        queue.async {
            self.begun = true
            self.pump()
        }
    }

    override func wake() {
        let schedule = wakeFlag.withLock { w -> Bool in
            if w { return false }
            w = true
            return true
        }
        if schedule { queue.async { self.wakeFlag.withLock { $0 = false }; self.pump() } }
    }

    override func requestStop() {
        queue.async {
            self.stopRequested = true
            self.pump()
        }
    }

    func resumeFromPause() {
        queue.async { self.pump() }
    }

    private func scheduleRead() {
        guard !pumpScheduled else { return }
        pumpScheduled = true
        queue.async {
            self.pumpScheduled = false
            self.pump()
        }
    }

    /// One step of the read → stamp → pace → emit loop. Runs on `queue`.
    private func pump() {
        // A live source's I/O can wake it between its start and the pipeline's move to
        // running; reading then could end the whole run before the run has begun.
        guard begun, !lifecycle.state.isFinal else { return }
        if stopRequested || pipeline?.isCancelled == true {
            // A graceful stop still emits what the clock has reached; what lies in the future
            // was never acquired in run-clock terms.
            if let batch = pending, pipeline?.isCancelled != true {
                let due = dueCount(batch)
                if due > 0 {
                    emit(batch.slice(0..<due))
                    pipeline?.noteEmitted(upTo: batch.uptimes[due - 1])
                }
            }
            pending = nil
            endSource(.finished)
            return
        }
        if pipeline?.isPaused == true { return }
        if var batch = pending {
            guard hasRoom() else { return }
            let due = dueCount(batch)
            if due > 0 {
                emit(batch.slice(0..<due))
                pipeline?.noteEmitted(upTo: batch.uptimes[due - 1])
                batch = batch.slice(due..<batch.count)
            }
            if batch.isEmpty {
                pending = nil
            } else {
                pending = batch
                arm(for: batch.uptimes[0])
                return
            }
        }
        switch status {
        case .finished:
            endSource(.finished)
            return
        case .idle, .more:
            break
        }
        guard hasRoom() else { return }
        var batch = Batch(stream: name, capacity: batchSize)
        do {
            status = try source.read(into: &batch, limit: batchSize, context: context)
        } catch {
            noteError("\(error)", fatal: true)
            pipeline?.stageFailed(self)
            endSource(.failed)
            return
        }
        if !batch.isEmpty {
            let limited = pipeline?.admit(&batch, from: self) ?? .open
            stampSteps(&batch)
            pending = batch
            if limited == .reached { status = .finished }
        }
        if pending != nil || status != .idle { scheduleRead() }
    }

    private func hasRoom() -> Bool {
        if outputsHaveRoom({ [weak self] in self?.wake() }) {
            blockedReported = false
            return true
        }
        if !blockedReported {
            blockedReported = true
            publish(.backpressure(component: name))
        }
        return false
    }

    /// Samples at the head of `batch` that the clock has reached.
    private func dueCount(_ batch: Batch) -> Int {
        let clock = context.clock
        if clock.mode == .virtual {
            if let last = batch.uptimes.last { clock.advance(to: last) }
            return batch.count
        }
        let now = clock.now()
        var n = 0
        for u in batch.uptimes {
            if u > now { break }
            n += 1
        }
        return n
    }

    private func arm(for uptime: Double) {
        guard let deadline = context.clock.deadline(forUptime: uptime) else { return }
        if timer == nil {
            let t = DispatchSource.makeTimerSource(flags: .strict, queue: queue)
            t.setEventHandler { [weak self] in self?.pump() }
            t.schedule(deadline: deadline, leeway: .nanoseconds(0))
            t.activate()
            timer = t
        } else {
            timer!.schedule(deadline: deadline, leeway: .nanoseconds(0))
        }
    }

    /// Fills in step paths the source left empty, from the pipeline's step schedule.
    private func stampSteps(_ batch: inout Batch) {
        let steps = context.steps
        guard !steps.isEmpty else { return }
        for i in 0..<batch.count where batch.stepPaths[i].isEmpty {
            batch.setStepPath(StepSchedule.path(at: batch.uptimes[i], in: steps), at: i)
        }
    }

    private func endSource(_ final: LifecycleState) {
        timer?.cancel()
        timer = nil
        source.stop(context: context)
        finishStage(final == .finished && pipeline?.isCancelled == true ? .cancelled : final)
    }
}
