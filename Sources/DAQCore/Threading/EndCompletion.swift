import Dispatch
import Synchronization

/// A plugin's stop or finish that completes after `stop` or `finish` has returned: a client that
/// closes its connection on an event loop reports what it could not deliver only once the close
/// is done. See ``StageContext/completeEndLater(waitingAtMost:)``.
///
/// # Thread safety
/// Its state sits behind a `Mutex`; ``succeed()`` and ``fail(_:)`` may be called from any
/// thread, and only the first outcome counts.
public final class EndCompletion: Sendable {
    /// How the end came.
    enum Outcome: Sendable {
        case succeeded
        case failed(any Error)
        /// The limit passed with neither: the stage ends as if it had succeeded.
        case expired
    }

    private enum State {
        case waiting(then: (@Sendable (Outcome) -> Void)?)
        case settled(Outcome)
    }

    private let state = Mutex(State.waiting(then: nil))
    private let settled = DispatchSemaphore(value: 0)
    /// The longest the stage waits.
    let limit: Duration

    init(limit: Duration) {
        self.limit = limit
    }

    /// The end has completed: the stage ends as it would have when `stop` or `finish` returned.
    public func succeed() { settle(.succeeded) }

    /// The end has failed: the stage ends failed, as if `finish` had thrown `error`.
    public func fail(_ error: any Error) { settle(.failed(error)) }

    /// The limit has passed.
    func expire() { settle(.expired) }

    private func settle(_ outcome: Outcome) {
        let then = state.withLock { s -> (@Sendable (Outcome) -> Void)?? in
            guard case .waiting(let then) = s else { return nil }
            s = .settled(outcome)
            return .some(then)
        }
        guard let then else { return }
        settled.signal()
        then?(outcome)
    }

    /// Calls `then` with the outcome once there is one: at once when it came already. The engine
    /// sets one handler, before the plugin can settle it from the stage's queue.
    func onSettle(_ then: @escaping @Sendable (Outcome) -> Void) {
        let now = state.withLock { s -> Outcome? in
            switch s {
            case .waiting:
                s = .waiting(then: then)
                return nil
            case .settled(let outcome): return outcome
            }
        }
        if let now { then(now) }
    }

    /// Blocks the calling thread, never a stage's, until the end completes or ``limit`` has passed.
    func wait() -> Outcome {
        let (seconds, attoseconds) = limit.components
        let nanos = max(0, seconds) * 1_000_000_000 + attoseconds / 1_000_000_000
        if settled.wait(timeout: .now() + .nanoseconds(Int(clamping: nanos))) == .timedOut { expire() }
        return state.withLock { s in
            if case .settled(let outcome) = s { return outcome }
            return .expired
        }
    }
}
