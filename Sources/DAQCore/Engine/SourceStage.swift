import Dispatch
import Synchronization

/// Runs a ``Source``: pulls batches while downstream has room, stamps them, and paces them
/// by the run clock with one strict `DispatchSourceTimer`.
final class SourceStage: StageRuntime, @unchecked Sendable {
    typealias Reading = SourceMachine.Reading
    let source: any Source
    let batchSize: Int
    /// The stage's lifecycle and everything each phase carries; touched on `queue` only.
    private var machine = SourceMachine()
    private var timer: (any DispatchSourceTimer)?
    /// Whether a pump is queued: wakes from any thread and the stage's own re-reads coalesce
    /// into one. Not lifecycle: only how often the queue is asked to look.
    private let pumpQueued = Mutex(false)
    /// What it does with what a live source delivers while the run is paused.
    var pauseHandling = PauseHandling.drop
    /// The earliest run-clock time of a sample it holds or reads next: its first sample not yet
    /// emitted, 0 while it has more to read at once or has not read yet, infinity when it holds
    /// nothing (a live source with nothing waiting) or has ended. A transform's timer tick at
    /// `t` waits while this is before `t`: those samples come first. Written on `queue`.
    private let heldFrom = Atomic(0.0.bitPattern)
    /// Callbacks of transforms whose tick waits for this source; called once it holds nothing
    /// before their tick any more. `waiting` spares the lock when nobody waits.
    private let heldWaiters = Mutex<[ObjectIdentifier: (before: Double, wake: @Sendable () -> Void)]>([:])
    private let waiting = Atomic(false)

    init(name: String, type: String, source: any Source, batchSize: Int, pool: DispatchQueue) {
        self.source = source
        self.batchSize = batchSize
        super.init(name: name, kind: .source, type: type, pool: pool)
    }

    override var plugin: AnyObject? { source }

    override var builtStage: BuiltStage? { .source(source) }

    override var lifecycleState: LifecycleState { machine.lifecycle }

    override func startPlugin() throws {
        run(machine.start())
        do {
            try source.start(context: context)
        } catch {
            // The run reports the failure; the stage ends with it.
            _ = machine.end(.failed)
            throw error
        }
        run(machine.started())
    }

    /// Whether it holds, or reads at once, a sample stamped before `uptime`.
    func holdsSamples(before uptime: Double) -> Bool {
        Double(bitPattern: heldFrom.load(ordering: .acquiring)) < uptime
    }

    /// Calls `wake` once it holds nothing before `uptime`; at once (on this thread) if that is so
    /// already, so a caller never misses the moment between its check and its wait. A waiter
    /// asking again replaces what it asked before.
    func notifyWhenPast(_ uptime: Double, for waiter: ObjectIdentifier, _ wake: @escaping @Sendable () -> Void) {
        heldWaiters.withLock { $0[waiter] = (uptime, wake) }
        waiting.store(true, ordering: .releasing)
        if !holdsSamples(before: uptime) { releaseWaiters() }
    }

    /// Records what it holds now and wakes the ticks that waited for less. Runs on `queue`.
    private func noteHeld(_ r: Reading?) {
        let from: Double
        if let r, r.status != .finished || r.pending != nil {
            from = r.pending?.uptimes.first ?? (r.status == .more ? 0 : .infinity)
        } else {
            from = .infinity
        }
        heldFrom.store(from.bitPattern, ordering: .releasing)
        if waiting.load(ordering: .acquiring) { releaseWaiters() }
    }

    private func releaseWaiters() {
        let due = heldWaiters.withLock { all -> [@Sendable () -> Void] in
            let passed = all.filter { !holdsSamples(before: $0.value.before) }
            for key in passed.keys { all[key] = nil }
            if all.isEmpty { waiting.store(false, ordering: .releasing) }
            return passed.values.map(\.wake)
        }
        for wake in due { wake() }
    }

    override func abortStarted() {
        source.stop(context: context)
    }

    /// The run has begun: reading starts, paused when the run is paused. The run's state is
    /// read on the stage's queue, so a pause sent before this (ignored while the stage had not
    /// begun) and one sent after it both hold.
    func begin() {
        queue.async { self.run(self.machine.begin(paused: self.host?.isPaused ?? false)) }
    }

    override func wake() {
        let schedule = pumpQueued.withLock { queued -> Bool in
            if queued { return false }
            queued = true
            return true
        }
        guard schedule else { return }
        queue.async {
            self.pumpQueued.withLock { $0 = false }
            self.run(self.machine.wake())
        }
    }

    override func requestStop() {
        queue.async { self.run(self.machine.stop(.graceful)) }
    }

    override func requestCancel() {
        queue.async { self.run(self.machine.stop(.cancel)) }
    }

    override func pauseStage() {
        queue.async { self.run(self.machine.pause()) }
    }

    override func resumeStage() {
        queue.async { self.run(self.machine.resume()) }
    }

    /// Carries out what the machine answered, after telling observers of a new state. Runs on `queue`.
    private func run(_ action: SourceMachine.Action) {
        report(machine.lifecycle)
        switch action {
        case .none, .startPlugin: break
        case .pump: pump()
        case .release:
            releaseHold()
            pump()
        case .illegal(let message): EngineInvariant.violated(message)
        }
    }

    /// A source asked to be read again at run-clock `uptime` (a poll interval ends): the pacing
    /// timer wakes the stage then. While samples wait for their time the timer is theirs; the
    /// read after they go out lets the source ask again. Under the virtual clock nothing is
    /// armed: time there moves with the data.
    override func requestTick(atUptime uptime: Double) {
        queue.async {
            guard let r = self.machine.reading, r.pending == nil else { return }
            self.arm(for: uptime)
        }
    }

    /// One step of the read → stamp → pace → emit loop. Runs on `queue`.
    private func pump() {
        guard let (phase, lent) = machine.checkOut() else { return }
        var r = lent
        let final: LifecycleState?
        switch phase {
        case .stopping(let ending): final = stop(&r, ending)
        case .paused: final = readWhilePaused(&r)
        case .running: final = read(&r)
        }
        if let final {
            endSource(final)
        } else {
            machine.checkIn(r)
            noteHeld(r)
        }
    }

    /// A graceful stop still emits what the clock has reached; what lies in the future was never
    /// acquired in run-clock terms. A cancel discards it.
    private func stop(_ r: inout Reading, _ ending: SourceMachine.Ending) -> LifecycleState {
        if let batch = r.pending, ending == .graceful {
            let due = dueCount(batch)
            if due > 0 {
                emit(batch.slice(0..<due))
                links?.watermark.noteEmitted(upTo: batch.uptimes[due - 1])
            }
        }
        r.pending = nil
        if r.status != .finished || r.cut != nil {
            closeSource(at: links?.watermark.finalUptime() ?? context.clock.now())
        }
        return ending == .cancel ? .cancelled : .finished
    }

    private func read(_ r: inout Reading) -> LifecycleState? {
        if var batch = r.pending {
            guard hasRoom(&r) else { return nil }
            let due = dueCount(batch)
            if due > 0 {
                emit(batch.slice(0..<due))
                links?.watermark.noteEmitted(upTo: batch.uptimes[due - 1])
                batch = batch.slice(due..<batch.count)
            }
            if batch.isEmpty {
                r.pending = nil
            } else {
                r.pending = batch
                arm(for: batch.uptimes[0])
                return nil
            }
        }
        switch r.status {
        case .finished:
            if let cut = r.cut {
                // `--duration N` runs N seconds of the run clock, not only until the last sample
                // before N; the source is closed at N, as a stop at N would close it.
                if case .duration(let end) = cut, !context.clock.isDue(end) {
                    arm(for: end)
                    return nil
                }
                context.clock.advance(to: cut.uptime)
                links?.watermark.noteEmitted(upTo: cut.uptime)
                // The run ends at the cut on every clock, not when its last stage got there.
                links?.watermark.noteStop(at: cut.uptime)
                closeSource(at: cut.uptime)
            }
            return .finished
        case .idle, .more:
            break
        }
        guard hasRoom(&r) else { return nil }
        var batch = Batch(stream: name, capacity: batchSize)
        do {
            r.status = try source.read(into: &batch, limit: batchSize, context: context)
        } catch {
            noteError(daqError(error), fatal: true)
            host?.stageFailed(self)
            return .failed
        }
        if !batch.isEmpty {
            admit(&batch, &r)
            r.pending = batch.isEmpty ? nil : batch
        }
        if r.pending != nil || r.status != .idle { wake() }
        return nil
    }

    /// Applies the run's limits to what the source read.
    private func admit(_ batch: inout Batch, _ r: inout Reading) {
        let limited = links?.limits.admit(&batch, from: name) ?? .open
        switch limited {
        case .open: break
        case .duration:
            r.status = .finished
            r.cut = .duration(links?.limits.duration ?? 0)
        case .samples:
            r.status = .finished
            r.cut = .samples(batch.uptimes.last ?? context.clock.now())
            // The last of `--max-samples`: every other source stops; this one ends by itself
            // after emitting what it admitted.
            host?.maxSamplesReached(by: self)
        }
    }

    /// A live source goes on producing while the run is paused: what arrives then is read, so
    /// it does not pile up in the device, and dropped (and counted) or, with `pause: buffer`,
    /// kept to go out after the pause. Samples not yet due (a generator's, a recording's) wait.
    private func readWhilePaused(_ r: inout Reading) -> LifecycleState? {
        guard context.clock.mode == .realtime, r.pending == nil, r.status != .finished else { return nil }
        var batch = Batch(stream: name, capacity: batchSize)
        do {
            r.status = try source.read(into: &batch, limit: batchSize, context: context)
        } catch {
            noteError(daqError(error), fatal: true)
            host?.stageFailed(self)
            return .failed
        }
        let due = dueCount(batch)
        if due > 0 {
            var dropped = due
            if pauseHandling == .buffer {
                let capacity = pauseCapacity
                // Stamped on a clock that stood still: what it describes is when it arrived.
                if output?.descriptor.timeBase == .run {
                    let arrived = context.clock.wallNow()
                    for i in 0..<due { batch.setTimestamp(arrived, at: i) }
                }
                dropped = r.hold.keep(due == batch.count ? batch : batch.slice(0..<due), capacity: capacity)
                let kept = r.hold.count
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
        if due < batch.count { r.pending = batch.slice(due..<batch.count) }
        if r.status == .more && r.pending == nil { wake() }
        return nil
    }

    /// The most a pause keeps: what the smallest input buffer it feeds holds, so the burst
    /// after the resume fits downstream.
    private var pauseCapacity: Int {
        outputs.map(\.capacity).min() ?? BufferSpec.default.size
    }

    /// Puts what the pause kept ahead of what waits, in the order it came, under the run's limits;
    /// says once how many did not fit.
    private func releaseHold() {
        guard let (phase, lent) = machine.checkOut() else { return }
        var r = lent
        defer { machine.checkIn(r) }
        guard let (kept, dropped) = r.hold.take() else { return }
        stats.withLock { $0.buffered = 0 }
        if dropped > 0 {
            let message =
                "pause: buffer kept \(kept.count) samples that arrived during the pause "
                + "and dropped \(dropped) more (it holds \(pauseCapacity))"
            publish(.warning(component: name, message: message))
        }
        guard phase != .stopping(.cancel), !kept.isEmpty else { return }
        var batch = kept
        admit(&batch, &r)
        if let rest = r.pending { batch.append(contentsOf: rest) }
        r.pending = batch.isEmpty ? nil : batch
    }

    private func hasRoom(_ r: inout Reading) -> Bool {
        if outputsHaveRoom({ [weak self] in self?.wake() }) {
            r.blockedReported = false
            return true
        }
        if !r.blockedReported {
            r.blockedReported = true
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

    /// Stamps each sample with the step in force at its time as it goes out, not as it was
    /// read: a source reads ahead of the clock (a recording, a generator, what a pause held), and
    /// a step that `daq control`, a step card or the API adds meanwhile must still reach every
    /// sample at or after its time.
    /// A source's types come from its data (a CSV's first row, a JSON line), so a value that
    /// does not fit its declared type widens the type before the batch goes out.
    override func emit(_ batch: Batch) {
        var b = batch
        stampSteps(&b)
        if let wider = output?.retyped(by: b) { changeOutput(to: wider) }
        super.emit(b)
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
        emit(batch)
        if let last = batch.uptimes.last { links?.watermark.noteEmitted(upTo: last) }
    }

    private func endSource(_ final: LifecycleState) {
        timer?.cancel()
        timer = nil
        noteHeld(nil)
        source.stop(context: context)
        // A source whose stop completes later keeps the stage open, counting what it reports.
        if awaitDeferredEnd(final, then: { [self] in end($0) }) {
            if case .illegal(let message) = machine.close(final) { EngineInvariant.violated(message) }
            report(machine.lifecycle)
            return
        }
        end(final)
    }

    private func end(_ final: LifecycleState) {
        if case .illegal(let message) = machine.end(final) { EngineInvariant.violated(message) }
        finishStage(final)
    }
}
