import Dispatch

/// The lifecycle of a run, as one state with what each phase carries, and the inputs that move
/// it. Each input returns what the run must tell its stages; an input the state does not allow
/// returns ``Action/illegal(_:)`` and changes nothing.
///
/// | state        | start    | started(n)          | startFailed | stop               | cancel                  | pause  | resume  | stageFailed          | stageFinished        |
/// |--------------|----------|---------------------|-------------|--------------------|-------------------------|--------|---------|----------------------|----------------------|
/// | idle         | starting | ✗                   | ✗           | –                  | –                       | –      | –       | ✗                    | ✗                    |
/// | starting(p)  | ✗        | running, or stopping + stop/cancel when p | ended(failed) | starting(stop) | starting(cancel) | – | – | starting(failure) | ✗                |
/// | running(a)   | ✗        | ✗                   | ✗           | stopping, stop     | stopping(cancelled), cancel | paused, pause | – | stopping(failure), stop | ended(f) at 0, else – |
/// | paused(a)    | ✗        | ✗                   | ✗           | stopping, stop     | stopping(cancelled), cancel | –  | running, resume | stopping(failure), stop | ended(f) at 0, else – |
/// | stopping(a)  | ✗        | ✗                   | ✗           | –                  | stopping(cancelled), cancel | –  | –       | stopping(failure)    | ended(f) at 0, else – |
/// | ended(f)     | ✗        | ✗                   | ✗           | –                  | –                       | –      | –       | –                    | ✗                    |
///
/// `f` is `failed` when a stage failed, else `cancelled` when the run was cancelled, else
/// `finished`. A second ``start()`` is illegal: ``PipelineRun/start()`` throws for it.
struct RunMachine {
    /// What a started run carries.
    struct Active {
        /// Stages counted in and not yet finished; the run ends when it comes back to 0.
        var stages = 0
        /// Stages a reload retires, and the group its wait is in.
        var retiring: [ObjectIdentifier: DispatchGroup] = [:]
        var failure: DAQError?
        var cancelled = false

        var final: LifecycleState { failure != nil ? .failed : cancelled ? .cancelled : .finished }
    }

    /// A stop or a cancel asked for while the plugins start.
    enum Pending: Int, Comparable {
        case none, stop, cancel

        static func < (a: Pending, b: Pending) -> Bool { a.rawValue < b.rawValue }
    }

    enum State {
        case idle
        /// Plugins start; a stop, a cancel or a stage's failure meanwhile is kept for the end of it.
        case starting(Pending, failure: DAQError?)
        case running(Active)
        case paused(Active)
        case stopping(Active)
        case ended(LifecycleState, failure: DAQError?, endDate: Double)
    }

    /// What the run tells its stages after an input.
    enum Action: Equatable {
        case none
        /// Sources stop reading; the rest drains.
        case stop
        /// Every stage stops at once, discarding what it holds.
        case cancel
        case pause
        case resume
        /// The input is not allowed in this state: a bug in the engine, or a second `start()`.
        case illegal(String)
    }

    private(set) var state = State.idle

    private func illegal(_ input: String) -> Action {
        .illegal("run: \(input) in state \(lifecycle)")
    }

    /// The lifecycle observers see.
    var lifecycle: LifecycleState {
        switch state {
        case .idle: return .idle
        case .starting: return .starting
        case .running: return .running
        case .paused: return .paused
        case .stopping: return .stopping
        case .ended(let final, _, _): return final
        }
    }

    /// The first failure of a stage, or of the start.
    var failure: DAQError? {
        switch state {
        case .running(let a), .paused(let a), .stopping(let a): return a.failure
        case .ended(_, let failure, _): return failure
        case .starting(_, let failure): return failure
        case .idle: return nil
        }
    }

    /// When the last stage ended, seconds since 1970.
    var endDate: Double? {
        if case .ended(_, _, let date) = state { return date }
        return nil
    }

    /// Whether the run was cancelled.
    var isCancelled: Bool {
        switch state {
        case .running(let a), .paused(let a), .stopping(let a): return a.cancelled
        case .starting(let p, _): return p == .cancel
        case .ended(let final, _, _): return final == .cancelled
        case .idle: return false
        }
    }

    mutating func start() -> Action {
        guard case .idle = state else { return illegal("start") }
        state = .starting(.none, failure: nil)
        return .none
    }

    /// Every plugin started; `stages` are counted in.
    mutating func started(stages: Int) -> Action {
        guard case .starting(let pending, let failure) = state else { return illegal("started") }
        var active = Active(stages: stages, failure: failure)
        switch failure == nil ? pending : max(pending, .stop) {
        case .none:
            state = .running(active)
            return .none
        case .stop:
            state = .stopping(active)
            return .stop
        case .cancel:
            active.cancelled = true
            state = .stopping(active)
            return .cancel
        }
    }

    /// Whether a stop or a cancel came while the plugins start: a first pass under way then ends.
    var endsWhileStarting: Bool {
        if case .starting(let pending, _) = state { return pending != .none }
        return false
    }

    /// A stop or cancel ended the run during its first pass, before any stage started.
    mutating func startCancelled(at date: Double) -> Action {
        guard case .starting = state else { return illegal("startCancelled") }
        state = .ended(.cancelled, failure: nil, endDate: date)
        return .none
    }

    mutating func startFailed(_ error: DAQError, at date: Double) -> Action {
        guard case .starting = state else { return illegal("startFailed") }
        state = .ended(.failed, failure: error, endDate: date)
        return .none
    }

    mutating func stop() -> Action {
        switch state {
        case .starting(let p, let f): state = .starting(max(p, .stop), failure: f)
        case .running(let a), .paused(let a):
            state = .stopping(a)
            return .stop
        case .idle, .stopping, .ended: break
        }
        return .none
    }

    mutating func cancel() -> Action {
        switch state {
        case .starting(_, let f): state = .starting(.cancel, failure: f)
        case .running(var a), .paused(var a), .stopping(var a):
            guard !a.cancelled else { return .none }
            a.cancelled = true
            state = .stopping(a)
            return .cancel
        case .idle, .ended: break
        }
        return .none
    }

    mutating func pause() -> Action {
        guard case .running(let a) = state else { return .none }
        state = .paused(a)
        return .pause
    }

    mutating func resume() -> Action {
        guard case .paused(let a) = state else { return .none }
        state = .running(a)
        return .resume
    }

    /// A stage failed: the run keeps its first failure and stops.
    mutating func stageFailed(_ error: DAQError) -> Action {
        switch state {
        case .running(var a), .paused(var a):
            a.failure = a.failure ?? error
            state = .stopping(a)
            return .stop
        case .stopping(var a):
            a.failure = a.failure ?? error
            state = .stopping(a)
        case .starting(let p, let f): state = .starting(p, failure: f ?? error)
        case .ended: break
        case .idle: return illegal("stageFailed")
        }
        return .none
    }

    /// Counts in stages a reload added; `false` once the run has ended or is ending.
    mutating func countIn(_ n: Int) -> Bool {
        switch state {
        case .running(var a):
            a.stages += n
            state = .running(a)
        case .paused(var a):
            a.stages += n
            state = .paused(a)
        default: return false
        }
        return true
    }

    /// A reload retires `stage`; `group` is left once it has finished.
    mutating func retire(_ stage: ObjectIdentifier, into group: DispatchGroup) {
        modifyActive { $0.retiring[stage] = group }
    }

    /// A stage ended. Returns the group its retirement waits in, and whether the run ended with it.
    mutating func stageFinished(_ stage: ObjectIdentifier, at date: Double) -> (DispatchGroup?, ended: Bool) {
        var group: DispatchGroup?
        var last = false
        var final = LifecycleState.finished
        modifyActive { a in
            a.stages -= 1
            group = a.retiring.removeValue(forKey: stage)
            last = a.stages == 0
            final = a.final
        }
        if last { state = .ended(final, failure: failure, endDate: date) }
        return (group, last)
    }

    private mutating func modifyActive(_ body: (inout Active) -> Void) {
        switch state {
        case .running(var a):
            body(&a)
            state = .running(a)
        case .paused(var a):
            body(&a)
            state = .paused(a)
        case .stopping(var a):
            body(&a)
            state = .stopping(a)
        case .idle, .starting, .ended:
            EngineInvariant.violated("run: a stage reported in state \(lifecycle)")
        }
    }
}
