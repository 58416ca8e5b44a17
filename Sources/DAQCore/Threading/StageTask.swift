import Dispatch
import Synchronization

/// A timer or a descriptor watch a stage asked its ``StageContext`` for: the handle that ends it.
///
/// The engine cancels every one of a stage's tasks when the stage ends, so a plugin that forgets
/// one leaves nothing running; cancelling it earlier is how a plugin stops a timer it no longer
/// needs (a reply came before the timeout) or a watch on a descriptor it is about to close.
///
/// # Thread safety
/// Its state sits behind a `Mutex`: ``cancel()`` may be called from any queue, any number of
/// times, before or after the task fired and before or after the stage ended.
public final class StageTask: Sendable {
    /// Armed holds what ends it (a Dispatch timer's cancel, a watch thread's stop) until then.
    private enum State {
        case armed(@Sendable () -> Void)
        case ended
    }

    private let state: Mutex<State>
    /// The stage's registry, which holds the task while it is armed; a cycle broken when it ends.
    private let registry: StageTasks?

    /// A task that is already over: what a context hands out once its stage has ended.
    static let ended = StageTask()

    private init() {
        state = Mutex(.ended)
        registry = nil
    }

    init(source: any DispatchSourceProtocol, registry: StageTasks) {
        let box = DispatchSourceBox(source)
        state = Mutex(.armed({ box.source.cancel() }))
        self.registry = registry
    }

    /// A task ended by `stop`, called once, from any thread.
    init(registry: StageTasks, stop: @escaping @Sendable () -> Void) {
        state = Mutex(.armed(stop))
        self.registry = registry
    }

    /// Whether the task is over: cancelled, or a timer that has fired.
    public var isCancelled: Bool {
        state.withLock {
            if case .ended = $0 { return true }
            return false
        }
    }

    /// Stops the task: a timer that has not fired never will, and a watch calls its handler no
    /// more. Safe to call more than once, from any queue, and after the stage has ended. A
    /// handler already running on the stage's queue finishes; none starts after this returns
    /// when it is called on the stage's queue.
    public func cancel() {
        let stop = state.withLock { s -> (@Sendable () -> Void)? in
            guard case .armed(let stop) = s else { return nil }
            s = .ended
            return stop
        }
        guard let stop else { return }
        stop()
        registry?.remove(self)
    }

    /// Marks a one-shot timer fired; `false` when it was cancelled first (the handler then must
    /// not run, because its event raced the cancellation).
    func fire() -> Bool {
        let stop = state.withLock { s -> (@Sendable () -> Void)? in
            guard case .armed(let stop) = s else { return nil }
            s = .ended
            return stop
        }
        guard let stop else { return false }
        stop()
        registry?.remove(self)
        return true
    }
}

/// A Dispatch source carried in a `Sendable` state. `@unchecked Sendable`: Dispatch sources are
/// thread-safe objects, and the box is only used to call `cancel()`, which libdispatch allows
/// from any thread.
struct DispatchSourceBox: @unchecked Sendable {
    let source: any DispatchSourceProtocol
    init(_ source: any DispatchSourceProtocol) { self.source = source }
}
