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
    /// Where `--duration` or `--max-samples` cut the input: the source's input did not end,
    /// the run's limit did, so the source is closed at that time rather than left open.
    private var cut: Cut?
    private var stopRequested = false
    private var pumpScheduled = false
    private var timer: (any DispatchSourceTimer)?
    private let wakeFlag = Mutex(false)
    /// Whether the current wait for room has been reported, so a long wait is one event.
    private var blockedReported = false
    /// What it does with what a live source delivers while the run is paused.
    var pauseHandling = PauseHandling.drop
    /// What it kept during a pause (`pause: buffer`), delivered after it.
    private var hold = PauseHold()
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
        if schedule {
            queue.async {
                self.wakeFlag.withLock { $0 = false }
                self.pump()
            }
        }
    }

    override func requestStop() {
        queue.async {
            self.stopRequested = true
            self.pump()
        }
    }

    /// A source asked to be read again at run-clock `uptime` (a poll interval ends): the pacing
    /// timer wakes the stage then. While samples wait for their time the timer is theirs; the
    /// read after they go out lets the source ask again. Under the virtual clock nothing is
    /// armed: time there moves with the data.
    override func requestTick(atUptime uptime: Double) {
        queue.async {
            guard self.pending == nil, !self.lifecycle.state.isFinal else { return }
            self.arm(for: uptime)
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
        // What a pause kept goes out first after it, and at a stop in the pause too.
        if !hold.isEmpty, pipeline?.isPaused != true || stopRequested { releaseHold() }
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
            if status != .finished || cut != nil { closeSource(at: pipeline?.finalUptime() ?? context.clock.now()) }
            endSource(.finished)
            return
        }
        if pipeline?.isPaused == true {
            readWhilePaused()
            return
        }
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
            if let cut {
                // `--duration N` runs N seconds of the run clock, not only until the last sample
                // before N; the source is closed at N, as a stop at N would close it.
                if case .duration(let end) = cut, !context.clock.isDue(end) {
                    arm(for: end)
                    return
                }
                context.clock.advance(to: cut.uptime)
                pipeline?.noteEmitted(upTo: cut.uptime)
                closeSource(at: cut.uptime)
            }
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
            noteError(daqError(error), fatal: true)
            pipeline?.stageFailed(self)
            endSource(.failed)
            return
        }
        if !batch.isEmpty {
            admit(&batch)
            pending = batch.isEmpty ? nil : batch
        }
        if pending != nil || status != .idle { scheduleRead() }
    }

    /// Applies the run's limits to what the source read, and stamps its steps.
    private func admit(_ batch: inout Batch) {
        let limited = pipeline?.admit(&batch, from: self) ?? .open
        stampSteps(&batch)
        switch limited {
        case .open: break
        case .duration:
            status = .finished
            cut = .duration(pipeline?.options.duration ?? 0)
        case .samples:
            status = .finished
            cut = .samples(batch.uptimes.last ?? context.clock.now())
        }
    }

    /// A live source goes on producing while the run is paused: what arrives then is read, so
    /// it does not pile up in the device, and dropped (and counted) or, with `pause: buffer`,
    /// kept to go out after the pause. Samples not yet due (a generator's, a recording's) wait.
    private func readWhilePaused() {
        guard context.clock.mode == .realtime, pending == nil, status != .finished else { return }
        var batch = Batch(stream: name, capacity: batchSize)
        do {
            status = try source.read(into: &batch, limit: batchSize, context: context)
        } catch {
            noteError(daqError(error), fatal: true)
            pipeline?.stageFailed(self)
            endSource(.failed)
            return
        }
        let due = dueCount(batch)
        if due > 0 {
            var dropped = due
            if pauseHandling == .buffer {
                let capacity = pauseCapacity
                dropped = hold.keep(due == batch.count ? batch : batch.slice(0..<due), capacity: capacity)
                let kept = hold.count
                stats.withLock {
                    $0.buffered = kept
                    $0.bufferCapacity = capacity
                }
            }
            if dropped > 0 {
                stats.withLock { $0.dropped += dropped }
                publish(.dropped(component: name, samples: dropped))
            }
        }
        if due < batch.count { pending = batch.slice(due..<batch.count) }
        if status == .more && pending == nil { scheduleRead() }
    }

    /// The most a pause keeps: what the smallest input buffer it feeds holds, so the burst
    /// after the resume fits downstream.
    private var pauseCapacity: Int {
        outputs.map(\.capacity).min() ?? BufferSpec.default.size
    }

    /// Puts what the pause kept ahead of what waits, in the order it came, under the run's limits;
    /// says once how many did not fit.
    private func releaseHold() {
        guard let (kept, dropped) = hold.take() else { return }
        stats.withLock { $0.buffered = 0 }
        if dropped > 0 {
            let message =
                "pause: buffer kept \(kept.count) samples that arrived during the pause "
                + "and dropped \(dropped) more (it holds \(pauseCapacity))"
            publish(.warning(component: name, message: message))
        }
        guard pipeline?.isCancelled != true, !kept.isEmpty else { return }
        var batch = kept
        admit(&batch)
        if let rest = pending { batch.append(contentsOf: rest) }
        pending = batch.isEmpty ? nil : batch
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

    /// Lets the source close what it holds open, and emits that at `uptime`.
    private func closeSource(at uptime: Double) {
        var batch = Batch(stream: name)
        do {
            try source.cutShort(into: &batch, at: uptime, context: context)
        } catch {
            noteError("closing at stop: \(error)", fatal: false)
        }
        guard !batch.isEmpty else { return }
        stampSteps(&batch)
        emit(batch)
        if let last = batch.uptimes.last { pipeline?.noteEmitted(upTo: last) }
    }

    private func endSource(_ final: LifecycleState) {
        timer?.cancel()
        timer = nil
        source.stop(context: context)
        finishStage(final == .finished && pipeline?.isCancelled == true ? .cancelled : final)
    }
}

/// Why a source's input was cut short by the run's limits.
private enum Cut {
    /// `--duration`: the run clock's end.
    case duration(Double)
    /// `--max-samples`: after the last admitted sample.
    case samples(Double)

    var uptime: Double {
        switch self {
        case .duration(let end), .samples(let end): return end
        }
    }
}
