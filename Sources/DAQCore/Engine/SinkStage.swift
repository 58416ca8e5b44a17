import Dispatch

/// Runs a ``Sink``: writes batches with step, pause and resume markers woven in, reports sent and delivered,
/// and flushes on an interval and at the end.
final class SinkStage: ConsumerStage, @unchecked Sendable {
    let sink: any Sink
    let flushInterval: Double
    private var markers: StepMarkers!
    private var pauses: PauseMarkers!
    private var flushTimer: (any DispatchSourceTimer)?
    private var dirty = false
    private var stepsVersion = 0
    /// Whether the start marker waits for the first data, which says what time the recording
    /// it replays starts at: a marker's `timestamp` is on the data's time base.
    private var startPending = false

    init(name: String, type: String, sink: any Sink, flushInterval: Double, pool: DispatchQueue) {
        self.sink = sink
        self.flushInterval = flushInterval
        super.init(name: name, kind: .sink, type: type, pool: pool)
    }

    override var plugin: AnyObject? { sink }

    override var builtStage: BuiltStage? { .sink(sink) }

    override func startConsumer() throws {
        let (steps, version) = context.schedule.snapshot()
        markers = StepMarkers(steps: steps, stream: name, origin: context.startDate)
        pauses = PauseMarkers(stream: name)
        stepsVersion = version
        try sink.start(context: context)
        if inputStreams.isEmpty || mergedInput.timeBase == .run {
            try write(markers.start())
        } else {
            startPending = true
        }
        if flushInterval > 0 {
            let t = DispatchSource.makeTimerSource(queue: queue)
            let interval = DispatchTimeInterval.nanoseconds(Int(flushInterval * 1e9))
            t.schedule(deadline: .now() + interval, repeating: interval, leeway: .milliseconds(50))
            t.setEventHandler { [weak self] in self?.periodicFlush() }
            t.activate()
            flushTimer = t
        }
    }

    override func abortStarted() {
        flushTimer?.cancel()
        flushTimer = nil
        try? sink.finish(context: context)
    }

    override func consume(_ batch: Batch) throws {
        _ = noteInput(batch)
        followOrigin(of: batch)
        if startPending {
            startPending = false
            try write(markers.start())
        }
        refreshSteps()
        var woven = weavePauses(markers.weave(batch))
        for change in markers.takeChanges() { noteStep(change) }
        woven.stream = batch.stream
        try write(woven)
    }

    /// Dates the markers woven into `batch` on its time base: for a stream with time of its own
    /// (a replayed recording), the recording's time at run-clock 0, from its first sample.
    private func followOrigin(of batch: Batch) {
        guard let d = batch.declared?.descriptor, d.timeBase != .run,
            let row = batch.kinds.firstIndex(of: .data) ?? batch.kinds.firstIndex(of: .event)
        else { return }
        // To the microsecond, which every recording's times are within: the same origin from
        // whichever sample, so a marker's time is the same whatever batch it is woven into.
        markers.origin = ((batch.timestamps[row] - batch.uptimes[row]) * 1e6).rounded() / 1e6
    }

    /// Adds the markers of the run's pauses; without a pause, one atomic load per batch.
    private func weavePauses(_ batch: Batch, final: Bool = false) -> Batch {
        pauses.refresh(from: context.clock)
        guard pauses.hasPending else { return batch }
        return pauses.weave(batch, steps: markers.steps, final: final)
    }

    /// Takes steps a stage added since the last batch.
    private func refreshSteps() {
        guard context.schedule.version != stepsVersion else { return }
        let (steps, version) = context.schedule.snapshot()
        markers.update(steps: steps)
        stepsVersion = version
    }

    private func write(_ batch: Batch) throws {
        guard !batch.isEmpty else { return }
        let before = stats.withLock { $0.bytes }
        try sink.write(batch, context: context)
        // Observers of a sink see what it wrote, step markers included.
        notifyTaps(batch)
        var sent = batch.count
        if !sink.sendsMarkers {
            for kind in batch.kinds where kind == .marker { sent -= 1 }
        }
        let bytes = stats.withLock { s -> Int in
            s.samplesOut += batch.count
            s.sent += sent
            return s.bytes - before
        }
        dirty = true
        guard sent > 0 else { return }
        metrics?.sent.increment(by: Int64(sent))
        host?.publish(.sent(sink: name, samples: sent, bytes: bytes))
    }

    /// Publishes each step change once, whichever sink reaches it first.
    private func noteStep(_ change: (String, Double)) {
        let step = StepSpec(path: change.0, at: change.1)
        guard links?.steps.firstSight(of: step) ?? true else { return }
        publish(.stepChanged(path: change.0, uptime: change.1))
    }

    private func periodicFlush() {
        guard dirty, machine.isRunning else { return }
        do {
            try sink.flush(context: context)
            dirty = false
        } catch {
            noteError("flush failed: \(error)", fatal: false)
        }
    }

    override func finishStage(_ final: LifecycleState) {
        if final == .failed { settleUndelivered() }
        super.finishStage(final)
    }

    /// A sink that failed delivers nothing more: what it sent that was neither acknowledged,
    /// reported failed nor kept in a spool is lost, and counted so (sent = delivered + failed
    /// + queued).
    private func settleUndelivered() {
        let (lost, why) = stats.withLock { s -> (Int, String) in
            let lost = s.queued - (s.spooled ?? 0)
            if lost > 0 { s.failed += lost }
            return (lost, s.failure ?? "the sink failed")
        }
        guard lost > 0 else { return }
        metrics?.failed.increment(by: Int64(lost))
        publish(.sinkFailed(sink: name, samples: lost, message: why))
    }

    override func endOfInput() throws {
        flushTimer?.cancel()
        flushTimer = nil
        if !isCancelling {
            if startPending {
                startPending = false
                try write(markers.start())
            }
            refreshSteps()
            let end = weavePauses(markers.stop(at: links?.watermark.finalUptime() ?? context.clock.now()), final: true)
            for change in markers.takeChanges() { noteStep(change) }
            try write(end)
        }
        try sink.flush(context: context)
        try sink.finish(context: context)
    }
}
