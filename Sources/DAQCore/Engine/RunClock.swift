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
/// # Thread safety
/// The virtual watermark sits behind a `Mutex`; everything else is immutable.
public final class RunClock: Sendable {
    /// The mode.
    public let mode: ClockMode
    /// The replay pace (1 = as recorded); 1 for `realtime`.
    public let speed: Double
    /// Wall time at the run's start, seconds since 1970.
    public let startDate: Double
    private let startNanos: UInt64
    private let watermark = Mutex<Double>(0)

    /// Starts a clock now.
    public init(mode: ClockMode, speed: Double = 1) {
        self.mode = mode
        self.speed = mode == .replay ? speed : 1
        startDate = Date().timeIntervalSince1970
        startNanos = DispatchTime.now().uptimeNanoseconds
    }

    /// Run-clock seconds now.
    public func now() -> Double {
        switch mode {
        case .virtual: return watermark.withLock { $0 }
        case .realtime, .replay: return elapsedWallSeconds() * speed
        }
    }

    /// Wall seconds since the run started, whatever the mode.
    public func elapsedWallSeconds() -> Double {
        Double(DispatchTime.now().uptimeNanoseconds &- startNanos) / 1e9
    }

    /// When a sample stamped `uptime` is due; `nil` under the virtual clock, where all are due.
    public func deadline(forUptime uptime: Double) -> DispatchTime? {
        guard mode != .virtual else { return nil }
        let wall = max(0, uptime / speed)
        return DispatchTime(uptimeNanoseconds: startNanos &+ UInt64(wall * 1e9))
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
