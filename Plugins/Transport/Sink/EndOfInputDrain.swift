import DAQCore

/// Where the `mqtt` sink stands in waiting for acknowledgements once its input has ended:
/// the engine keeps the stage open while it drains (``DeferredWork/hasPendingWork``), and a
/// timer of the stage's ends that after `drain_timeout`; then, after `finish`, while the last
/// messages settle and the client closes (``StageContext/completeEndLater(waitingAtMost:)``).
enum EndOfInputDrain {
    /// Input goes on.
    case running
    /// Input ended at `since`; `timer` ends the wait.
    case draining(since: ContinuousClock.Instant, timer: StageTask)
    /// `drain_timeout` passed with messages unacknowledged.
    case timedOut
    /// `finish` has run; the client closes once what was sent settles or `timer` fires.
    case closing(timer: StageTask)
    /// The client is closing or closed.
    case ended

    /// What remains of `timeout` seconds for a last wait in `finish`.
    func secondsLeft(of timeout: Double) -> Double {
        switch self {
        case .running: return timeout
        case .draining(let since, _):
            let (s, atto) = (ContinuousClock.now - since).components
            return max(0, timeout - (Double(s) + Double(atto) / 1e18))
        case .timedOut, .closing, .ended: return 0
        }
    }

    /// Cancels the timer: the drain is over.
    mutating func end() {
        switch self {
        case .draining(_, let timer), .closing(let timer): timer.cancel()
        case .running, .timedOut, .ended: break
        }
        self = .ended
    }
}
