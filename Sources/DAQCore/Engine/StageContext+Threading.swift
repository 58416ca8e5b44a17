import Dispatch
import Foundation

/// The timers, descriptor watches and off-pool work a plugin needs, so that no plugin makes a
/// thread, queue or timer of its own or blocks the stage's queue.
///
/// Every handler runs on the stage's own serial queue, the queue the plugin's `read`, `process`
/// or `write` run on, so it may touch the plugin's state without a lock. Every timer and watch
/// ends when the stage ends: the engine cancels what a plugin left running.
extension StageContext {
    /// Runs `work` on the stage's queue once `delay` of wall time has passed.
    ///
    /// Wall time, whatever the clock mode, and a pause does not hold it: for the plugin's own
    /// logic (a reconnect backoff, a hang timeout). For a time on the run clock use
    /// ``wake(atUptime:)``.
    /// - Parameters:
    ///   - delay: How long from now; zero or less runs `work` on the next turn of the queue.
    ///   - work: What to do; not run if the task is cancelled or the stage ends first.
    /// - Returns: The timer's handle; keep it to cancel the timer, or drop it.
    @discardableResult
    public func after(_ delay: Duration, _ work: @escaping @Sendable () -> Void) -> StageTask {
        guard let stage else { return .ended }
        let timer = DispatchSource.makeTimerSource(queue: stage.queue)
        let tasks = stage.tasks
        let task = StageTask(source: timer, registry: tasks)
        timer.setEventHandler {
            guard task.fire() else { return }
            work()
        }
        // The source keeps itself alive until its cancellation has run, so releasing the last
        // handle never races a firing (libdispatch aborts on a source freed while armed).
        timer.setCancelHandler { withExtendedLifetime(timer) {} }
        timer.schedule(deadline: .now() + Self.nanoseconds(delay), leeway: .milliseconds(1))
        // Activated even when the stage has ended and `add` cancelled it: libdispatch must not
        // release a source that was never activated; a cancelled one then only runs its
        // cancellation.
        tasks.add(task)
        timer.activate()
        return task
    }

    /// Wakes the stage (as ``wake()`` does) when the run clock reaches `uptime`: a source is read
    /// again, a ``DeferredWork`` plugin is asked again whether it takes input. A later request
    /// replaces an earlier one, as ``requestTick(atUptime:)`` does for a source, and a source's
    /// request behaves alike.
    ///
    /// - Under the virtual clock no wake comes: time there moves with the data, and a stage waiting
    ///   for a time to come is read or handed data again anyway as the data moves it.
    /// - A pause holds the run clock and so the wake: it comes when the clock, running again,
    ///   reaches `uptime`, never early.
    /// - A time already reached wakes the stage now.
    public func wake(atUptime uptime: Double) {
        guard let stage, clock.mode != .virtual, let generation = stage.tasks.nextWakeGeneration() else { return }
        armWake(at: uptime, generation: generation)
    }

    private func armWake(at uptime: Double, generation: Int) {
        guard let stage, stage.tasks.isCurrentWake(generation) else { return }
        guard let delay = clock.wallTime(until: uptime) else {
            // Held: ask again once the clock runs, when the time left is known.
            clock.whenRunning { [weak self] in self?.armWake(at: uptime, generation: generation) }
            return
        }
        guard delay > .zero else { return stage.wake() }
        after(delay) { [weak self] in
            guard let self, let stage = self.stage, stage.tasks.isCurrentWake(generation) else { return }
            // A pause that began meanwhile moved the time: wait for it again.
            if self.clock.isDue(uptime) { stage.wake() } else { self.armWake(at: uptime, generation: generation) }
        }
    }

    /// Calls `handler` on the stage's queue whenever `fileDescriptor` is ready for `event`, until
    /// the watch is cancelled or the stage ends.
    ///
    /// Readiness is level-triggered: the handler is called again while data is left unread (or
    /// room unused), so it should read until `EAGAIN` (the descriptor is best made non-blocking)
    /// or cancel the watch; a write watch is best made only while something waits to be written.
    ///
    /// The descriptor stays the plugin's, and who closes it depends on `closesDescriptor`: with
    /// `true` the watch closes it once its polling thread has stopped (after the cancellation, the
    /// only safe moment); with `false` the plugin closes it, but only after the watch's
    /// cancellation has taken effect, which is never certain from outside: prefer `true`.
    ///
    /// Each watch polls on a thread of its own (see `PollWatch` for why not a Dispatch source).
    /// - Parameters:
    ///   - fileDescriptor: The descriptor to watch.
    ///   - event: ``DescriptorEvent/read`` or ``DescriptorEvent/write``.
    ///   - closesDescriptor: Whether the watch closes the descriptor when it ends.
    ///   - handler: What to do when it is ready.
    /// - Returns: The watch's handle; ``StageTask/cancel()`` ends it, any number of times.
    public func watch(
        fileDescriptor: Int32, for event: DescriptorEvent, closesDescriptor: Bool = false,
        _ handler: @escaping @Sendable () -> Void
    ) -> StageTask {
        guard let stage else {
            if closesDescriptor { _ = close(fileDescriptor) }
            return .ended
        }
        guard
            let watch = PollWatch(
                descriptor: fileDescriptor, for: event, queue: stage.queue, closesDescriptor: closesDescriptor,
                handler: handler)
        else { return .ended }
        let task = StageTask(registry: stage.tasks) { watch.stop() }
        // Registered before it runs: a stage that ended meanwhile cancels it, and the thread's
        // first poll sees that stop and closes the descriptor.
        stage.tasks.add(task)
        watch.start(isCancelled: { task.isCancelled })
        return task
    }

    /// Runs `work`, which blocks (waiting for a child process to exit, a blocking `ioctl`), on one
    /// of a few threads kept for that, never on the shared pool the stages run on; then calls
    /// `then` with its result on the stage's queue.
    ///
    /// At most 8 such jobs run at once in the whole process; more wait their turn. So offload
    /// only work that ends by itself, and keep it short where you can. The work itself cannot
    /// be cancelled; its result reaches `then` even after the stage has ended, so the plugin can
    /// clean up (reap the child it waited for).
    /// - Parameters:
    ///   - work: The blocking work. It must not touch the plugin's state: it runs elsewhere.
    ///   - then: Receives what `work` returned or threw, on the stage's queue.
    public func offload<T: Sendable>(
        _ work: @escaping @Sendable () throws -> T, then: @escaping @Sendable (Result<T, any Error>) -> Void
    ) {
        guard let queue = stage?.queue else { return }
        BlockingPool.shared.submit {
            let result = Result { try work() }
            queue.async { then(result) }
        }
    }

    /// Says that the plugin's start completes only later, when it calls
    /// ``StartCompletion/succeed()`` or ``StartCompletion/fail(_:)`` (from any thread): a source
    /// subscribing to a broker is started once the broker has answered, so it misses nothing
    /// published after the run counts it started. Call it in `start`, and return.
    ///
    /// The engine waits for it on the thread that starts the run, never on a stage's queue or
    /// the shared pool, before it starts the next stage, for at most `limit`; a start that
    /// neither succeeded nor failed by then goes on as if it had succeeded (the plugin goes on
    /// trying). A failure fails the run's start as a throwing `start` does. A harness that
    /// starts a plugin by hand waits with ``awaitStart()``.
    /// - Parameter limit: The longest the engine waits.
    /// - Returns: What the plugin completes its start with.
    public func completeStartLater(waitingAtMost limit: Duration) -> StartCompletion {
        let completion = StartCompletion(limit: limit)
        stage?.tasks.deferStart(completion)
        return completion
    }

    /// Waits, as the engine does, for a start the plugin completes later; returns at once when
    /// it completed in `start`. For harnesses that start a plugin outside a pipeline.
    /// - Throws: What the plugin failed its start with.
    public func awaitStart() throws {
        try stage?.tasks.awaitStart().get()
    }

    /// Says that the plugin's `stop` (a source) or `finish` (a transform or sink) completes only
    /// later, when it calls ``EndCompletion/succeed()`` or ``EndCompletion/fail(_:)`` (from any
    /// thread): a client that closes its connection on an event loop of its own knows what it
    /// could not deliver only once the close is done. Call it in `stop` or `finish`, and return.
    ///
    /// The stage ends only then, and its timers, watches and ``perform(_:)`` still run until it
    /// does, so the plugin can report what it delivered, spooled or lost to a stage that counts
    /// it. Nothing waits meanwhile: no thread is held. After `limit` the stage ends as if the end
    /// had succeeded, with a warning. A failure ends the stage failed, as a throwing `finish`
    /// does. A harness that ends a plugin by hand waits with ``awaitEnd()``.
    /// - Parameter limit: The longest the stage waits.
    /// - Returns: What the plugin completes its end with.
    public func completeEndLater(waitingAtMost limit: Duration) -> EndCompletion {
        let completion = EndCompletion(limit: limit)
        stage?.tasks.deferEnd(completion)
        return completion
    }

    /// Waits, as a stage does, for a stop or finish the plugin completes later; returns at once
    /// when it completed in `stop` or `finish`. For harnesses that end a plugin outside a
    /// pipeline; never on the stage's queue, where the plugin's own completion may have to run.
    /// - Throws: What the plugin failed its end with.
    public func awaitEnd() throws {
        guard let completion = stage?.tasks.takeDeferredEnd() else { return }
        if case .failed(let error) = completion.wait() { throw error }
    }

    /// Cancels every timer and watch of this stage and refuses new ones, as the engine does when
    /// a stage ends; for harnesses that run a plugin outside a pipeline (see `DAQTesting`).
    public func endTasks() {
        stage?.tasks.cancelAll()
    }

    /// Runs `body` on the stage's queue and waits for it: how a harness calls a plugin outside a
    /// pipeline, so that, as in a pipeline, the plugin's `start`, `process`, `write` or `read`
    /// never runs at the same time as one of its timers' or watches' handlers. On the stage's
    /// queue already, it runs `body` there at once.
    ///
    /// For harnesses (see `DAQTesting`), never for a plugin: a plugin is on its queue already,
    /// and waiting on another stage's queue would block its own.
    /// - Parameter body: The call into the plugin.
    /// - Returns: What `body` returns.
    public func onStageQueue<T>(_ body: () throws -> T) rethrows -> T {
        guard let stage, !isOnStageQueue else { return try body() }
        return try stage.queue.sync(execute: body)
    }

    /// Whether the caller runs on the stage's queue, where the engine calls the plugin and every
    /// handler of its timers and watches runs: for a plugin's assertions and for tests.
    public var isOnStageQueue: Bool {
        guard let stage else { return false }
        return DispatchQueue.getSpecific(key: StageRuntime.queueKey) == ObjectIdentifier(stage)
    }

    /// Timers and watches of this stage still running; for tests.
    public var runningTaskCount: Int { stage?.tasks.count ?? 0 }

    private static func nanoseconds(_ d: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = d.components
        guard seconds < Int64(Int.max / 1_000_000_000) - 1 else { return .never }
        return .nanoseconds(max(0, Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)))
    }
}
