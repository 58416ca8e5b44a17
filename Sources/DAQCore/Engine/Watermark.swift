import Synchronization

/// The latest sample time the run's sources have emitted and where a stop cut the run: what
/// the stop marker of every sink is stamped with. Lock-free on the batch path.
final class Watermark: Sendable {
    let mode: ClockMode
    private let clock: RunClock
    /// The bit pattern of the latest emitted uptime; uptimes are never negative, so the bit
    /// patterns order as the values do.
    private let emitted = Atomic<UInt64>(0.0.bitPattern)
    private let stoppedAt = Mutex<Double?>(nil)

    init(clock: RunClock) {
        self.clock = clock
        self.mode = clock.mode
    }

    /// A source emitted samples up to `uptime` (read-ahead samples not yet due do not count).
    func noteEmitted(upTo uptime: Double) {
        let bits = max(uptime, 0).bitPattern
        var current = emitted.load(ordering: .relaxed)
        while bits > current {
            let (exchanged, original) = emitted.compareExchange(
                expected: current, desired: bits, ordering: .acquiringAndReleasing)
            if exchanged { return }
            current = original
        }
    }

    /// The latest sample time any source has emitted.
    var latest: Double { Double(bitPattern: emitted.load(ordering: .acquiring)) }

    /// Records the run-clock time a stop was asked for; the first one counts.
    func noteStop(at uptime: Double) {
        stoppedAt.withLock { if $0 == nil { $0 = uptime } }
    }

    /// The run-clock time a stop was asked for, once one was.
    var stopTime: Double? { stoppedAt.withLock { $0 } }

    /// Where the run ends on its clock, for the stop marker: a recording's last sample time when
    /// it played to its end (under the virtual and the replay clock alike, so both write the same
    /// stop marker), the time of the stop when one was asked for (`--duration N` at exactly N,
    /// at every clock), and else now on the realtime clock, where live input ends when it ends.
    func finalUptime() -> Double {
        switch mode {
        case .virtual: return latest
        case .replay: return max(latest, stoppedAt.withLock { $0 } ?? 0)
        case .realtime: return max(latest, stoppedAt.withLock { $0 } ?? clock.now())
        }
    }
}
