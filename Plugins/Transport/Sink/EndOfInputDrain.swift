import DAQCore

/// Where the `mqtt` sink stands in waiting for acknowledgements once its input has ended:
/// the engine keeps the stage open while it drains (``DeferredWork/hasPendingWork``), and a
/// timer of the stage's ends that after `drain_timeout`.
enum EndOfInputDrain {
    /// Input goes on.
    case running
    /// Input ended at `since`; `timer` ends the wait.
    case draining(since: ContinuousClock.Instant, timer: StageTask)
    /// `drain_timeout` passed with messages unacknowledged.
    case timedOut
    /// `finish` has run.
    case ended

    /// What remains of `timeout` seconds for a last wait in `finish`.
    func secondsLeft(of timeout: Double) -> Double {
        switch self {
        case .running: return timeout
        case .draining(let since, _):
            let (s, atto) = (ContinuousClock.now - since).components
            return max(0, timeout - (Double(s) + Double(atto) / 1e18))
        case .timedOut, .ended: return 0
        }
    }

    /// Cancels the timer: the drain is over.
    mutating func end() {
        if case .draining(_, let timer) = self { timer.cancel() }
        self = .ended
    }
}
