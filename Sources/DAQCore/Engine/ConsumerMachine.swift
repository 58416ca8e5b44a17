/// The lifecycle of a transform or sink stage, as one state with what each phase needs, and the
/// inputs that move it. Each input returns what the stage must do next; an input the state does
/// not allow returns ``Action/illegal(_:)`` and changes nothing (see ``EngineInvariant``).
///
/// | state        | start    | started              | wake  | fail            | cancel            | retire        | close(f)   | end(f)   |
/// |--------------|----------|----------------------|-------|-----------------|-------------------|---------------|------------|----------|
/// | idle(c)      | starting | ✗                    | –     | –               | idle(cancel)      | –             | ✗          | ended(f) |
/// | starting(c,t)| ✗        | running(t), or cancelling when c | – | –  | starting(cancel)  | –             | ✗          | ended(f) |
/// | running(r)   | ✗        | ✗                    | drain | failing, drain  | cancelling, drain | running(retiring) | closing(f) | ended(f) |
/// | failing      | ✗        | ✗                    | drain | –               | –                 | –             | closing(f) | ended(f) |
/// | cancelling   | ✗        | ✗                    | drain | failing, drain  | –                 | –             | closing(f) | ended(f) |
/// | closing(f)   | ✗        | ✗                    | –     | –               | –                 | –             | ✗          | ended(f) |
/// | ended(f)     | ✗        | ✗                    | –     | –               | –                 | –             | ✗          | ✗        |
///
/// `–` is a legal input with nothing to do: a wake that reaches a stage wired by a reload before
/// it started, a second failure, a cancel of a stage that has failed. A failing stage keeps taking
/// and discarding its input until its producers end, so none of them waits for room that never
/// comes; only then does it end `failed`. A cancel before the start is kept and taken at
/// ``started()``. `closing` is a plugin whose `finish` completes later
/// (``StageContext/completeEndLater(waitingAtMost:)``): its input has ended, so nothing but the
/// end moves it.
struct ConsumerMachine {
    /// What a running stage carries between two batches.
    struct Running: Equatable {
        /// A reload replaces or removes the stage: it drains and ends without waiting for the
        /// rest of the run (the step changers elsewhere).
        var retiring = false
        /// Whether a ``DeferredWork`` plugin has been told its input ended.
        var toldInputEnded = false
        /// The run-clock time a transform asked to be ticked at.
        var tickAt: Double?
    }

    enum State: Equatable {
        case idle(cancel: Bool)
        /// Its plugin is starting; a tick it asks for meanwhile is kept.
        case starting(cancel: Bool, tickAt: Double?)
        case running(Running)
        /// Failed: input is discarded until the producers end, then the stage ends `failed`.
        case failing
        /// Cancelled: input is discarded and the plugin finishes, then the stage ends `cancelled`.
        case cancelling
        /// The plugin's `finish` has returned and completes later; the stage then ends as given.
        case closing(LifecycleState)
        case ended(LifecycleState)
    }

    enum Action: Equatable {
        case none
        /// Start the plugin.
        case startPlugin
        /// Take from the input buffer (or discard from it, failing or cancelling).
        case drain
        /// The input is not allowed in this state: a bug in the engine.
        case illegal(String)
    }

    private(set) var state = State.idle(cancel: false)

    private func illegal(_ input: String) -> Action {
        .illegal("consumer stage: \(input) in state \(state)")
    }

    /// The lifecycle observers see.
    var lifecycle: LifecycleState {
        switch state {
        case .idle: return .idle
        case .starting: return .starting
        case .running: return .running
        case .failing, .cancelling, .closing: return .stopping
        case .ended(let final): return final
        }
    }

    /// Whether input is taken and handed to the plugin (not failing, cancelling or ended).
    var isRunning: Bool {
        if case .running = state { return true }
        return false
    }

    mutating func start() -> Action {
        guard case .idle(let cancel) = state else { return illegal("start") }
        state = .starting(cancel: cancel, tickAt: nil)
        return .startPlugin
    }

    mutating func started() -> Action {
        guard case .starting(let cancel, let tickAt) = state else { return illegal("started") }
        state = cancel ? .cancelling : .running(Running(tickAt: tickAt))
        return .drain
    }

    mutating func wake() -> Action {
        switch state {
        case .running, .failing, .cancelling: return .drain
        case .idle, .starting, .closing, .ended: return .none
        }
    }

    mutating func fail() -> Action {
        switch state {
        case .running, .cancelling:
            state = .failing
            return .drain
        case .idle, .starting, .failing, .closing, .ended: return .none
        }
    }

    mutating func cancel() -> Action {
        switch state {
        case .idle: state = .idle(cancel: true)
        case .starting(_, let tickAt): state = .starting(cancel: true, tickAt: tickAt)
        case .running:
            state = .cancelling
            return .drain
        case .failing, .cancelling, .closing, .ended: break
        }
        return .none
    }

    mutating func retire() -> Action {
        guard case .running(var r) = state else { return .none }
        r.retiring = true
        state = .running(r)
        return .none
    }

    /// A transform asks to be ticked at `uptime` (or no more, `nil`); kept while it starts.
    mutating func setTick(_ uptime: Double?) {
        switch state {
        case .starting(let cancel, _): state = .starting(cancel: cancel, tickAt: uptime)
        case .running(var r):
            r.tickAt = uptime
            state = .running(r)
        case .idle, .failing, .cancelling, .closing, .ended: break
        }
    }

    /// A running stage's data, changed in place (the input's end told).
    mutating func updateRunning(_ body: (inout Running) -> Void) {
        guard case .running(var r) = state else { return }
        body(&r)
        state = .running(r)
    }

    /// The plugin's `finish` returned and completes later; the stage ends `final` then.
    mutating func close(_ final: LifecycleState) -> Action {
        guard final.isFinal else { return illegal("close(\(final))") }
        switch state {
        case .running, .failing, .cancelling:
            state = .closing(final)
            return .none
        case .idle, .starting, .closing, .ended: return illegal("close(\(final))")
        }
    }

    /// The stage ended (`finished`, `failed` or `cancelled`).
    mutating func end(_ final: LifecycleState) -> Action {
        guard final.isFinal else { return illegal("end(\(final))") }
        if case .ended = state { return illegal("end(\(final))") }
        state = .ended(final)
        return .none
    }
}
