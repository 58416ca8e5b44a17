import Dispatch
import Synchronization

/// A plugin's start that completes after `start` has returned: a source subscribed to a broker
/// is ready only once the broker has answered, and must miss nothing published after the run
/// counts it started. See ``StageContext/completeStartLater(waitingAtMost:)``.
///
/// # Thread safety
/// Its state sits behind a `Mutex`; ``succeed()`` and ``fail(_:)`` may be called from any
/// thread (the client's event loop), and only the first call counts.
public final class StartCompletion: Sendable {
    private enum State {
        case waiting
        case succeeded
        case failed(any Error)
    }

    private let state = Mutex(State.waiting)
    private let settled = DispatchSemaphore(value: 0)
    /// The longest the engine waits.
    let limit: Duration

    init(limit: Duration) {
        self.limit = limit
    }

    /// The start has completed: the run may go on.
    public func succeed() { settle(.succeeded) }

    /// The start has failed: the run fails as if `start` had thrown `error`.
    public func fail(_ error: any Error) { settle(.failed(error)) }

    private func settle(_ outcome: State) {
        let first = state.withLock { s -> Bool in
            guard case .waiting = s else { return false }
            s = outcome
            return true
        }
        if first { settled.signal() }
    }

    /// Blocks the calling thread, never a stage's, until the start completes or ``limit`` has
    /// passed; a start that did neither goes on as if it had succeeded.
    func wait() -> Result<Void, any Error> {
        let (seconds, attoseconds) = limit.components
        let nanos = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
        _ = settled.wait(timeout: .now() + .nanoseconds(Int(clamping: nanos)))
        return state.withLock { s in
            if case .failed(let error) = s { return .failure(error) }
            return .success(())
        }
    }
}
