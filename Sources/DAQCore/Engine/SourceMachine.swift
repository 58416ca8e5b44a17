/// The lifecycle of a source stage, as one state with everything each phase needs, and the
/// inputs that move it. Each input returns what the stage must do next; the stage runs that on
/// its queue. An input that is illegal in the current state returns ``Action/illegal(_:)`` and
/// leaves the state as it was; the stage reports it through ``EngineInvariant``, which stops a
/// debug build and logs in a release build.
///
/// | state        | start     | started | begin(paused:)   | wake | stop(e)            | pause  | resume           | close(f)   | end(f)   |
/// |--------------|-----------|---------|------------------|------|--------------------|--------|------------------|------------|----------|
/// | idle(s)      | starting  | ✗       | ✗                | –    | idle(e)            | –      | –                | ✗          | ended(f) |
/// | starting(s)  | ✗         | started | ✗                | –    | starting(e)        | –      | –                | ✗          | ended(f) |
/// | started(s)   | ✗         | ✗       | running / paused, or stopping(s), pump | – | started(e) | – | –      | ✗          | ended(f) |
/// | running(r)   | ✗         | ✗       | ✗                | pump | stopping(r, e), pump | paused | –              | closing(f) | ended(f) |
/// | paused(r)    | ✗         | ✗       | ✗                | pump | stopping(r, e), release | – | running, release | closing(f) | ended(f) |
/// | stopping(r,e)| ✗         | ✗       | ✗                | pump | stopping(r, max(e)), pump | – | –          | closing(f) | ended(f) |
/// | closing(f)   | ✗         | ✗       | ✗                | –    | –                  | –      | –                | ✗          | ended(f) |
/// | ended(f)     | ✗         | ✗       | ✗                | –    | –                  | –      | –                | ✗          | ✗        |
///
/// `–` is a legal input with nothing to do: a wake before the run began the stage (a live
/// source's I/O while it starts), a pause or a stop that reaches a stage that has ended. A stop
/// before the stage began is kept and taken at ``begin(paused:)``; a cancel outranks a graceful
/// stop (`max(e)`). "release" puts what a pause kept back in line, then pumps. `closing` is a
/// source whose `stop` completes later (``StageContext/completeEndLater(waitingAtMost:)``):
/// nothing is read any more, and nothing but the end moves it. The pump closes a source while it
/// holds the reading state, so `close` is legal there too.
struct SourceMachine {
    /// How a stop ends the stage: a graceful stop emits what the clock has reached and closes
    /// what the source holds open; a cancel discards it.
    enum Ending: Int, Comparable, Sendable {
        case graceful, cancel

        static func < (a: Ending, b: Ending) -> Bool { a.rawValue < b.rawValue }
    }

    /// Why a source's input was cut short by the run's limits.
    enum Cut: Equatable {
        /// `--duration`: the run clock's end.
        case duration(Double)
        /// `--max-samples`: after the last admitted sample.
        case samples(Double)

        var uptime: Double {
            switch self {
            case .duration(let end), .samples(let end): return end
            }
        }
    }

    /// What a started stage carries between two reads.
    struct Reading {
        /// Read but not yet due.
        var pending: Batch?
        var status: SourceStatus = .more
        /// Where `--duration` or `--max-samples` cut the input: the source's input did not end,
        /// the run's limit did, so the source is closed at that time rather than left open.
        var cut: Cut?
        /// Whether the current wait for room has been reported, so a long wait is one event.
        var blockedReported = false
        /// What it kept during a pause (`pause: buffer`), delivered after it.
        var hold = PauseHold()
    }

    /// The phase a stage is in while ``checkOut()`` lends its reading state to the pump.
    enum Phase: Equatable {
        case running, paused
        case stopping(Ending)
    }

    enum State {
        /// Built; a stop that came before the start is kept.
        case idle(stop: Ending?)
        /// Its plugin is starting.
        case starting(stop: Ending?)
        /// Started; the run has not yet begun it, so nothing is read.
        case started(stop: Ending?)
        case running(Reading)
        case paused(Reading)
        case stopping(Reading, Ending)
        /// The pump holds the reading state; no input can arrive meanwhile (one serial queue).
        case checkedOut(Phase)
        /// The source's `stop` has returned and completes later; the stage then ends as given.
        case closing(LifecycleState)
        case ended(LifecycleState)
    }

    /// What the stage does after an input.
    enum Action: Equatable {
        case none
        /// Start the plugin.
        case startPlugin
        /// Run one step of the read loop.
        case pump
        /// Put what the pause kept back in line, then run one step of the read loop.
        case release
        /// The input is not allowed in this state: a bug in the engine.
        case illegal(String)
    }

    private(set) var state = State.idle(stop: nil)

    private func illegal(_ input: String) -> Action {
        .illegal("source stage: \(input) in state \(state)")
    }

    /// The lifecycle observers see.
    var lifecycle: LifecycleState {
        switch state {
        case .idle: return .idle
        case .starting, .started: return .starting
        case .running, .checkedOut(.running): return .running
        case .paused, .checkedOut(.paused): return .paused
        case .stopping, .checkedOut(.stopping), .closing: return .stopping
        case .ended(let final): return final
        }
    }

    /// The stop asked for so far, if any.
    var stopRequested: Ending? {
        switch state {
        case .idle(let s), .starting(let s), .started(let s): return s
        case .stopping(_, let e), .checkedOut(.stopping(let e)): return e
        case .running, .paused, .checkedOut, .closing, .ended: return nil
        }
    }

    mutating func start() -> Action {
        guard case .idle(let stop) = state else { return illegal("start") }
        state = .starting(stop: stop)
        return .startPlugin
    }

    mutating func started() -> Action {
        guard case .starting(let stop) = state else { return illegal("started") }
        state = .started(stop: stop)
        return .none
    }

    mutating func begin(paused: Bool) -> Action {
        guard case .started(let stop) = state else { return illegal("begin") }
        if let stop {
            state = .stopping(Reading(), stop)
        } else {
            state = paused ? .paused(Reading()) : .running(Reading())
        }
        return .pump
    }

    mutating func wake() -> Action {
        switch state {
        case .running, .paused, .stopping: return .pump
        case .idle, .starting, .started, .closing, .ended: return .none
        case .checkedOut: return illegal("wake")
        }
    }

    mutating func stop(_ ending: Ending) -> Action {
        switch state {
        case .idle(let s): state = .idle(stop: max(s ?? ending, ending))
        case .starting(let s): state = .starting(stop: max(s ?? ending, ending))
        case .started(let s): state = .started(stop: max(s ?? ending, ending))
        case .running(let r):
            state = .stopping(r, ending)
            return .pump
        case .paused(let r):
            state = .stopping(r, ending)
            return .release
        case .stopping(let r, let e):
            state = .stopping(r, max(e, ending))
            return .pump
        case .closing, .ended: break
        case .checkedOut: return illegal("stop")
        }
        return .none
    }

    mutating func pause() -> Action {
        switch state {
        case .running(let r): state = .paused(r)
        case .idle, .starting, .started, .paused, .stopping, .closing, .ended: break
        case .checkedOut: return illegal("pause")
        }
        return .none
    }

    mutating func resume() -> Action {
        switch state {
        case .paused(let r):
            state = .running(r)
            return .release
        case .idle, .starting, .started, .running, .stopping, .closing, .ended: return .none
        case .checkedOut: return illegal("resume")
        }
    }

    /// The source's `stop` returned and completes later; the stage ends `final` then.
    mutating func close(_ final: LifecycleState) -> Action {
        guard final.isFinal else { return illegal("close(\(final))") }
        switch state {
        case .running, .paused, .stopping, .checkedOut:
            state = .closing(final)
            return .none
        case .idle, .starting, .started, .closing, .ended: return illegal("close(\(final))")
        }
    }

    /// The stage ended (`finished`, `failed` or `cancelled`).
    mutating func end(_ final: LifecycleState) -> Action {
        guard final.isFinal else { return illegal("end(\(final))") }
        if case .ended = state { return illegal("end(\(final))") }
        state = .ended(final)
        return .none
    }

    /// Lends the reading state to the pump, or `nil` when nothing is read in this state.
    mutating func checkOut() -> (Phase, Reading)? {
        let phase: Phase
        let reading: Reading
        switch state {
        case .running(let r): (phase, reading) = (.running, r)
        case .paused(let r): (phase, reading) = (.paused, r)
        case .stopping(let r, let e): (phase, reading) = (.stopping(e), r)
        case .idle, .starting, .started, .closing, .ended: return nil
        case .checkedOut:
            EngineInvariant.violated("source stage: checkOut while checked out")
            return nil
        }
        state = .checkedOut(phase)
        return (phase, reading)
    }

    /// Takes the reading state back after the pump, in the phase it was lent in.
    mutating func checkIn(_ reading: Reading) {
        guard case .checkedOut(let phase) = state else {
            EngineInvariant.violated("source stage: checkIn in state \(state)")
            return
        }
        switch phase {
        case .running: state = .running(reading)
        case .paused: state = .paused(reading)
        case .stopping(let e): state = .stopping(reading, e)
        }
    }

    /// The reading state, for a look that changes nothing (a source asking to be read at a time).
    var reading: Reading? {
        switch state {
        case .running(let r), .paused(let r), .stopping(let r, _): return r
        default: return nil
        }
    }
}
