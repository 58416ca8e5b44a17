import Dispatch
import Foundation
import Synchronization
import Testing

@testable import DAQCore

/// The timers, watches and off-pool work `StageContext` gives plugins: handlers on the stage's
/// queue, cancellable any number of times, and ended with the stage.
@Suite(.timeLimit(.minutes(20))) struct StageContextThreadingTests {
    private static func context(
        clock: RunClock = RunClock(mode: .virtual), onWake: @escaping @Sendable () -> Void = {}
    ) -> StageContext {
        StageContext.detached(name: "timed", kind: .transform, clock: clock, onWake: onWake)
    }

    @Test func aTimerRunsOnceOnTheStagesQueueAndIsForgotten() throws {
        let context = Self.context()
        let queue = try #require(context.stage?.queue)
        let fired = Gate()
        let runs = Atomic<Int>(0)
        let task = context.after(.milliseconds(5)) {
            dispatchPrecondition(condition: .onQueue(queue))
            runs.add(1, ordering: .relaxed)
            fired.open()
        }
        #expect(fired.wait(), "the timer never fired")
        // Behind the handler on the same queue: the task is over and the registry let go of it.
        queue.sync {}
        let runsNow = runs.load(ordering: .relaxed)
        #expect(runsNow == 1 && task.isCancelled && context.runningTaskCount == 0)
        task.cancel()
        task.cancel()
    }

    @Test func aCancelledTimerNeverRunsAndCancelIsSafeTwice() {
        let context = Self.context()
        let early = Atomic<Bool>(false)
        let task = context.after(.milliseconds(20)) { early.store(true, ordering: .relaxed) }
        #expect(context.runningTaskCount == 1)
        task.cancel()
        task.cancel()
        #expect(task.isCancelled && context.runningTaskCount == 0)
        // A later timer on the same serial queue: by the time it runs, the first one's time is long past.
        let later = Gate()
        context.after(.milliseconds(60)) { later.open() }
        #expect(later.wait())
        let earlyNow = early.load(ordering: .relaxed)
        #expect(!earlyNow)
    }

    @Test func theStagesEndCancelsWhatThePluginLeftRunning() throws {
        let context = Self.context()
        let stage = try #require(context.stage)
        let ran = Atomic<Bool>(false)
        let (readFD, writeFD) = try Self.pipe()
        defer { close(writeFD) }
        let timer = context.after(.seconds(3600)) { ran.store(true, ordering: .relaxed) }
        let watch = context.watch(fileDescriptor: readFD, for: .read, closesDescriptor: true) {}
        #expect(context.runningTaskCount == 2)
        stage.queue.sync { stage.finishStage(.finished) }
        #expect(timer.isCancelled && watch.isCancelled && context.runningTaskCount == 0)
        // A task asked for after the end is over at once and never runs.
        let late = context.after(.zero) { ran.store(true, ordering: .relaxed) }
        #expect(late.isCancelled && context.runningTaskCount == 0)
        stage.queue.sync {}
        let ranNow = ran.load(ordering: .relaxed)
        #expect(!ranNow)
        // The watch closed the descriptor it was given once libdispatch let go of it.
        #expect(Self.waitUntilClosed(readFD), "the watched descriptor was not closed")
        watch.cancel()
    }

    @Test func aReadWatchCallsItsHandlerOnTheStagesQueueUntilCancelled() throws {
        let context = Self.context()
        let queue = try #require(context.stage?.queue)
        let (readFD, writeFD) = try Self.pipe()
        defer { close(writeFD) }
        let got = Mutex<[UInt8]>([])
        let ready = Gate()
        let watch = context.watch(fileDescriptor: readFD, for: .read, closesDescriptor: true) {
            dispatchPrecondition(condition: .onQueue(queue))
            var buffer = [UInt8](repeating: 0, count: 16)
            let n = read(readFD, &buffer, buffer.count)
            if n > 0 { got.withLock { $0 += buffer[0..<n] } }
            ready.open()
        }
        var bytes: [UInt8] = [1, 2, 3]
        #expect(write(writeFD, &bytes, 3) == 3)
        #expect(ready.wait(), "the read watch never fired")
        queue.sync {}
        #expect(got.withLock { $0 } == [1, 2, 3])
        watch.cancel()
        watch.cancel()
        #expect(Self.waitUntilClosed(readFD))
        #expect(context.runningTaskCount == 0, "a cancelled watch is forgotten")
    }

    @Test func aWriteWatchFiresWhenAFullPipeHasRoomAgain() throws {
        let context = Self.context()
        let (readFD, writeFD) = try Self.pipe()
        defer { close(readFD) }
        _ = fcntl(writeFD, F_SETFL, fcntl(writeFD, F_GETFL) | O_NONBLOCK)
        var chunk = [UInt8](repeating: 7, count: 4096)
        while write(writeFD, &chunk, chunk.count) > 0 {}
        #expect(errno == EAGAIN)
        let room = Gate()
        let watch = Mutex<StageTask?>(nil)
        let queue = try #require(context.stage?.queue)
        // Level-triggered: a write watch fires for as long as there is room, so it ends itself.
        queue.sync {
            watch.withLock {
                $0 = context.watch(fileDescriptor: writeFD, for: .write, closesDescriptor: true) {
                    room.open()
                    watch.withLock { $0?.cancel() }
                }
            }
        }
        // Drain the pipe (non-blocking: it holds what the kernel gave it): only then may the watch fire.
        _ = fcntl(readFD, F_SETFL, fcntl(readFD, F_GETFL) | O_NONBLOCK)
        var sink = [UInt8](repeating: 0, count: 65536)
        while read(readFD, &sink, sink.count) > 0 {}
        #expect(room.wait(), "the write watch never fired")
        #expect(Self.waitUntilClosed(writeFD))
    }

    @Test func offloadedWorkRunsOffTheStagesQueueAndAnswersOnIt() throws {
        let context = Self.context()
        let queue = try #require(context.stage?.queue)
        let answered = Gate()
        let results = Mutex<[Result<Int, any Error>]>([])
        struct Refused: Error {}
        for value in [41, -1] {
            context.offload {
                dispatchPrecondition(condition: .notOnQueue(queue))
                if value < 0 { throw Refused() }
                return value + 1
            } then: { result in
                dispatchPrecondition(condition: .onQueue(queue))
                let count = results.withLock {
                    $0.append(result)
                    return $0.count
                }
                if count == 2 { answered.open() }
            }
        }
        #expect(answered.wait())
        let got = results.withLock { $0 }
        #expect(got.compactMap { try? $0.get() } == [42])
        #expect(got.contains { if case .failure(let e) = $0 { e is Refused } else { false } })
    }

    @Test func theBlockingPoolNeverRunsMoreThreadsThanItsLimit() {
        let pool = BlockingPool(limit: 2)
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let done = Gate()
        let finished = Atomic<Int>(0)
        for _ in 0..<5 {
            pool.submit {
                started.signal()
                release.wait()
                if finished.add(1, ordering: .relaxed).newValue == 5 { done.open() }
            }
        }
        // Two jobs hold both threads; three wait their turn, and no third thread is made for them.
        #expect(started.wait(timeout: .now() + 5) == .success && started.wait(timeout: .now() + 5) == .success)
        let (threads, busy) = pool.counts
        #expect(threads == 2 && busy == 2, "threads \(threads), at most \(busy) busy at once")
        for _ in 0..<5 { release.signal() }
        #expect(done.wait())
        let (after, peak) = pool.counts
        #expect(after == 2 && peak == 2, "threads \(after), at most \(peak) busy at once")
    }

    @Test func aWakeAtAnUptimeComesWhenTheClockGetsThere() {
        let clock = RunClock(mode: .realtime)
        let woken = Gate()
        let context = Self.context(clock: clock) { woken.open() }
        let target = clock.now() + 0.03
        context.wake(atUptime: target)
        #expect(woken.wait())
        #expect(clock.now() >= target)
    }

    @Test func aPauseHoldsAWakeUntilTheClockRunsAndReachesIt() {
        let clock = RunClock(mode: .realtime)
        let wakes = Atomic<Int>(0)
        let woken = Gate()
        let context = Self.context(clock: clock) {
            wakes.add(1, ordering: .relaxed)
            woken.open()
        }
        let target = clock.now() + 0.02
        clock.hold()
        context.wake(atUptime: target)
        // Well past the wall time the wake would have taken without the pause.
        let checked = Gate()
        context.after(.milliseconds(80)) { checked.open() }
        #expect(checked.wait())
        let wakesNow = wakes.load(ordering: .relaxed)
        #expect(wakesNow == 0, "woke during the pause")
        clock.release()
        #expect(woken.wait())
        #expect(clock.now() >= target)
    }

    @Test func aLaterWakeReplacesAnEarlierOne() {
        let clock = RunClock(mode: .realtime)
        let wakes = Atomic<Int>(0)
        let context = Self.context(clock: clock) { wakes.add(1, ordering: .relaxed) }
        context.wake(atUptime: clock.now() + 0.02)
        context.wake(atUptime: clock.now() + 3600)
        let checked = Gate()
        context.after(.milliseconds(80)) { checked.open() }
        #expect(checked.wait())
        let wakesNow = wakes.load(ordering: .relaxed)
        #expect(wakesNow == 0, "the replaced wake still came")
        context.endTasks()
    }

    @Test func theVirtualClockArmsNoWake() {
        let context = Self.context(clock: RunClock(mode: .virtual))
        context.wake(atUptime: 10)
        #expect(context.runningTaskCount == 0)
    }

    @Test func theWallTimeUntilAnUptimeIsUnknownUnderTheVirtualClockAndWhileHeld() throws {
        #expect(RunClock(mode: .virtual).wallTime(until: 1) == nil)
        let made = ContinuousClock.now
        let clock = RunClock(mode: .replay, speed: 2)
        let left = try #require(clock.wallTime(until: 10))
        // 10 s of replay at speed 2 is 5 s of wall time from the clock's start, less what has
        // passed since: bounded by the time this test took, however loaded the machine.
        #expect(left <= .seconds(5) && left >= .seconds(5) - (ContinuousClock.now - made))
        #expect(clock.wallTime(until: -1) == .zero)
        clock.hold()
        #expect(clock.wallTime(until: 10) == nil)
    }

    // MARK: helpers

    private static func pipe() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        guard Foundation.pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        return (fds[0], fds[1])
    }

    /// Whether `fd` gets closed within five seconds (the watch closes it on libdispatch's time).
    private static func waitUntilClosed(_ fd: Int32) -> Bool {
        let deadline = DispatchTime.now() + 5
        while DispatchTime.now() < deadline {
            if fcntl(fd, F_GETFD) == -1 && errno == EBADF { return true }
            sched_yield()
        }
        return false
    }
}

/// Opened once by a handler; the test waits for it for at most five seconds.
private final class Gate: Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    private let opened = Atomic<Bool>(false)
    func open() {
        if !opened.exchange(true, ordering: .relaxed) { semaphore.signal() }
    }
    func wait() -> Bool { semaphore.wait(timeout: .now() + 5) == .success }
}
