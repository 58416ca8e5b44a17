import Dispatch
import Foundation
import Synchronization

/// The one clock of a run: seconds since the run started.
///
/// - `realtime`: wall time elapsed.
/// - `replay`: recorded time, paced so that `speed` recorded seconds pass per wall second.
/// - `virtual`: data time: the latest sample time any source has emitted. Nothing waits.
///
/// Sources stamp samples with run-clock seconds (`uptime`); the engine holds each sample until
/// the clock reaches it, so the same input gives the same samples under all three modes.
///
/// A pause holds the clock: `now()` stands still from ``hold()`` to ``release()``, and a replay
/// goes on at its recorded spacing after it, with no burst of what fell due meanwhile. Each
/// pause is kept (``pauses()``), so every sink can mark it in its output.
///
/// # Thread safety
/// The virtual watermark and the pauses sit behind `Mutex`es; everything else is immutable.
/// A pause is recorded in the same critical section that holds the clock, so whoever reads a
/// held `now()` also sees the pause in ``pauses()``.
public final class RunClock: Sendable {
    /// The mode.
    public let mode: ClockMode
    /// The replay pace (1 = as recorded); 1 for `realtime`.
    public let speed: Double
    /// Wall time at the run's start, seconds since 1970.
    public let startDate: Double
    private let startNanos: UInt64
    private let watermark = Mutex<Double>(0)
    private let pauseState = Mutex(Pauses())
    /// Counts holds and releases; sinks load it per batch and take the lock only when it moved.
    private let pauseChanges = Atomic<Int>(0)

    /// Wall time the clock has been held, since when it is held now, and every pause so far.
    private struct Pauses {
        var heldNanos: UInt64 = 0
        var since: UInt64?
        var log: [ClockPause] = []
        /// Called once at the next release: timers waiting for a run-clock time to come.
        var releaseWaiters: [@Sendable () -> Void] = []
    }

    /// Starts a clock now.
    /// - Parameter startDate: the wall time the run is said to start at, seconds since 1970;
    ///   now when `nil`. Two runs given the same one stamp live samples alike, which is what a
    ///   test comparing them needs; the clock itself still runs from now.
    public init(mode: ClockMode, speed: Double = 1, startDate: Double? = nil) {
        self.mode = mode
        self.speed = mode == .replay ? speed : 1
        self.startDate = startDate ?? Date().timeIntervalSince1970
        startNanos = DispatchTime.now().uptimeNanoseconds
    }

    /// The wall time now, seconds since 1970, on the run's reckoning (``startDate`` plus the
    /// time elapsed, pauses included): when something arrived while the clock stood still.
    public func wallNow() -> Double {
        date(atNanos: DispatchTime.now().uptimeNanoseconds)
    }

    /// Run-clock seconds now.
    public func now() -> Double {
        switch mode {
        case .virtual: return watermark.withLock { $0 }
        case .realtime, .replay: return Double(runningNanos()) / 1e9 * speed
        }
    }

    /// Wall nanoseconds the clock has run: elapsed time less the pauses.
    private func runningNanos() -> UInt64 {
        let wall = DispatchTime.now().uptimeNanoseconds
        let held = pauseState.withLock { p in p.heldNanos &+ (p.since.map { wall &- $0 } ?? 0) }
        return (wall &- startNanos) &- held
    }

    /// Whether a pause holds the clock now.
    public var isHeld: Bool { pauseState.withLock { $0.since != nil } }

    /// Stops the clock (a pause); returns false when it was already held.
    @discardableResult
    public func hold() -> Bool {
        let virtualNow = mode == .virtual ? now() : 0
        let wall = DispatchTime.now().uptimeNanoseconds
        return pauseState.withLock { p in
            guard p.since == nil else { return false }
            p.since = wall
            let running = (wall &- startNanos) &- p.heldNanos
            let uptime = mode == .virtual ? virtualNow : Double(running) / 1e9 * speed
            p.log.append(ClockPause(uptime: uptime, heldDate: date(atNanos: wall)))
            pauseChanges.add(1, ordering: .releasing)
            return true
        }
    }

    /// Starts the clock again where it stood; returns false when it was not held.
    @discardableResult
    public func release() -> Bool {
        let wall = DispatchTime.now().uptimeNanoseconds
        let waiters = pauseState.withLock { p -> [@Sendable () -> Void]? in
            guard let since = p.since else { return nil }
            p.heldNanos &+= wall &- since
            p.since = nil
            p.log[p.log.count - 1].releasedDate = date(atNanos: wall)
            pauseChanges.add(1, ordering: .releasing)
            defer { p.releaseWaiters = [] }
            return p.releaseWaiters
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter() }
        return true
    }

    /// Calls `work` once the clock runs: now when it does, else at the next ``release()``, on
    /// the releasing thread. How a timer for a run-clock time waits out a pause.
    func whenRunning(_ work: @escaping @Sendable () -> Void) {
        let now = pauseState.withLock { p -> Bool in
            guard p.since != nil else { return true }
            p.releaseWaiters.append(work)
            return false
        }
        if now { work() }
    }

    /// Changes with every hold and release: unchanged means the pauses a reader holds are current.
    public var pauseVersion: Int { pauseChanges.load(ordering: .acquiring) }

    /// Every pause so far, in order, with the ``pauseVersion`` it belongs to.
    public func pauses() -> (pauses: [ClockPause], version: Int) {
        pauseState.withLock { ($0.log, pauseChanges.load(ordering: .acquiring)) }
    }

    /// Seconds since 1970 at monotonic `nanos`, on the same scale as ``startDate``.
    private func date(atNanos nanos: UInt64) -> Double {
        startDate + Double(nanos &- startNanos) / 1e9
    }

    /// Wall seconds since the run started, whatever the mode.
    public func elapsedWallSeconds() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- startNanos) / 1e9
    }

    /// Wall time from now until the clock reaches `uptime` (zero when it has), if the clock runs
    /// on: `nil` under the virtual clock, which moves with the data and not with time, and while
    /// a pause holds the clock, when nobody knows.
    public func wallTime(until uptime: Double) -> Duration? {
        guard let deadline = deadline(forUptime: uptime), deadline != .distantFuture else { return nil }
        let now = DispatchTime.now().uptimeNanoseconds
        let nanos = deadline.uptimeNanoseconds > now ? deadline.uptimeNanoseconds - now : 0
        return .nanoseconds(Int64(clamping: nanos))
    }

    /// When a sample stamped `uptime` is due; `nil` under the virtual clock, where all are due.
    /// While the clock is held, never: whoever waits is woken again after ``release()``.
    func deadline(forUptime uptime: Double) -> DispatchTime? {
        guard mode != .virtual else { return nil }
        let wall = max(0, uptime / speed)
        guard let held = pauseState.withLock({ $0.since == nil ? $0.heldNanos : nil }) else { return .distantFuture }
        return DispatchTime(uptimeNanoseconds: startNanos &+ held &+ UInt64(wall * 1e9))
    }

    /// Whether a sample stamped `uptime` may be emitted now.
    @inlinable
    public func isDue(_ uptime: Double) -> Bool {
        mode == .virtual || uptime <= now()
    }

    /// Advances the virtual clock to `uptime` if it is later.
    func advance(to uptime: Double) {
        guard mode == .virtual else { return }
        watermark.withLock { if uptime > $0 { $0 = uptime } }
    }
}
