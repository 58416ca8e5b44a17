import Testing

@testable import DAQCore

/// The source stage's transition table, row by row, with the orders past fixes were about.
@Suite("Source stage state machine", .timeLimit(.minutes(20)))
struct SourceMachineTests {
    typealias M = SourceMachine

    /// A machine driven to `state` by legal inputs.
    static func machine(_ state: String) -> M {
        var m = M()
        switch state {
        case "idle": break
        case "starting": _ = m.start()
        case "started":
            _ = m.start()
            _ = m.started()
        case "running":
            _ = m.start()
            _ = m.started()
            _ = m.begin(paused: false)
        case "paused":
            _ = m.start()
            _ = m.started()
            _ = m.begin(paused: true)
        case "stopping":
            _ = m.start()
            _ = m.started()
            _ = m.begin(paused: false)
            _ = m.stop(.graceful)
        case "closing":
            _ = m.start()
            _ = m.started()
            _ = m.begin(paused: false)
            _ = m.close(.finished)
        case "ended": _ = m.end(.finished)
        default: Issue.record("no state \(state)")
        }
        return m
    }

    static func isIllegal(_ a: M.Action) -> Bool {
        if case .illegal = a { return true }
        return false
    }

    @Test func startIsLegalOnlyOnce() {
        var m = M()
        #expect(m.start() == .startPlugin)
        #expect(m.lifecycle == .starting)
        for state in ["starting", "started", "running", "paused", "stopping", "ended"] {
            var other = Self.machine(state)
            let before = other.lifecycle
            #expect(Self.isIllegal(other.start()), "start in \(state)")
            #expect(other.lifecycle == before, "an illegal start leaves \(state) as it was")
        }
    }

    @Test func startedOnlyFollowsStarting() {
        var m = Self.machine("starting")
        #expect(m.started() == .none)
        #expect(m.lifecycle == .starting, "started is not running: the run has not begun the stage")
        for state in ["idle", "started", "running", "paused", "stopping", "ended"] {
            var other = Self.machine(state)
            #expect(Self.isIllegal(other.started()), "started in \(state)")
        }
    }

    @Test func beginRunsOrPausesAndPumps() {
        var m = Self.machine("started")
        #expect(m.begin(paused: false) == .pump)
        #expect(m.lifecycle == .running)
        var p = Self.machine("started")
        #expect(p.begin(paused: true) == .pump)
        #expect(p.lifecycle == .paused)
        for state in ["idle", "starting", "running", "paused", "stopping", "ended"] {
            var other = Self.machine(state)
            #expect(Self.isIllegal(other.begin(paused: false)), "begin in \(state)")
        }
    }

    /// 806b135 and fc8d774: a live source's I/O woke it while it started, and the early read
    /// could end the stage before the run had counted it.
    @Test func aWakeBeforeTheRunBeganReadsNothing() {
        for state in ["idle", "starting", "started"] {
            var m = Self.machine(state)
            #expect(m.wake() == .none, "wake in \(state)")
            #expect(m.checkOut() == nil, "nothing to read in \(state)")
        }
        for state in ["running", "paused", "stopping"] {
            var m = Self.machine(state)
            #expect(m.wake() == .pump, "wake in \(state)")
        }
        var ended = Self.machine("ended")
        #expect(ended.wake() == .none)
    }

    /// A reload's fresh source can hear the run's stop before it has started.
    @Test func aStopBeforeTheBeginIsKeptAndTakenAtTheBegin() {
        var m = M()
        #expect(m.stop(.graceful) == .none)
        _ = m.start()
        _ = m.started()
        #expect(m.stopRequested == .graceful)
        #expect(m.begin(paused: false) == .pump)
        #expect(m.lifecycle == .stopping)
        #expect(m.checkOut()?.0 == .stopping(.graceful))
    }

    @Test func aCancelOutranksAGracefulStopAndNotTheOtherWay() {
        var m = Self.machine("running")
        #expect(m.stop(.graceful) == .pump)
        #expect(m.stop(.cancel) == .pump)
        #expect(m.stopRequested == .cancel)
        #expect(m.stop(.graceful) == .pump)
        #expect(m.stopRequested == .cancel)
        var early = Self.machine("started")
        _ = early.stop(.cancel)
        _ = early.stop(.graceful)
        #expect(early.stopRequested == .cancel)
    }

    /// A stop in a pause first puts back what the pause kept (`pause: buffer`).
    @Test func aStopInAPauseReleasesWhatThePauseKept() {
        var m = Self.machine("paused")
        #expect(m.stop(.graceful) == .release)
        #expect(m.lifecycle == .stopping)
    }

    @Test func pauseAndResume() {
        var m = Self.machine("running")
        #expect(m.pause() == .none)
        #expect(m.lifecycle == .paused)
        #expect(m.pause() == .none)
        #expect(m.lifecycle == .paused, "a second pause changes nothing")
        #expect(m.resume() == .release)
        #expect(m.lifecycle == .running)
        #expect(m.resume() == .none)
        for state in ["idle", "starting", "started", "stopping", "ended"] {
            var other = Self.machine(state)
            let before = other.lifecycle
            #expect(other.pause() == .none && other.resume() == .none, "pause/resume in \(state)")
            #expect(other.lifecycle == before)
        }
    }

    @Test func theEndIsFinalAndComesOnce() {
        for state in ["idle", "starting", "started", "running", "paused", "stopping"] {
            var m = Self.machine(state)
            #expect(m.end(.cancelled) == .none, "end in \(state)")
            #expect(m.lifecycle == .cancelled)
            #expect(Self.isIllegal(m.end(.finished)), "a second end in \(state)")
            #expect(m.lifecycle == .cancelled)
            #expect(m.stop(.cancel) == .none && m.wake() == .none)
        }
        var m = M()
        #expect(Self.isIllegal(m.end(.running)), "only a final state ends a stage")
    }

    @Test func theReadingStateIsLentToThePumpAndComesBack() {
        var m = Self.machine("running")
        guard let (phase, reading) = m.checkOut() else {
            Issue.record("running lends its reading state")
            return
        }
        #expect(phase == .running)
        #expect(m.lifecycle == .running, "a pump in progress is still running to observers")
        var r = reading
        r.status = .finished
        m.checkIn(r)
        #expect(m.reading?.status == .finished)
        var s = Self.machine("stopping")
        #expect(s.checkOut()?.0 == .stopping(.graceful))
        #expect(s.end(.finished) == .none, "the pump ends the stage while it holds the state")
    }

    /// A source whose stop completes later: nothing is read, and nothing but the end moves it.
    @Test func aStopThatCompletesLaterClosesThenEnds() {
        for state in ["running", "paused", "stopping"] {
            var m = Self.machine(state)
            #expect(m.close(.cancelled) == .none, "close in \(state)")
            #expect(m.lifecycle == .stopping)
            #expect(m.wake() == .none && m.stop(.cancel) == .none && m.pause() == .none && m.resume() == .none)
            #expect(m.checkOut() == nil, "nothing is read while it closes")
            #expect(m.reading == nil && m.stopRequested == nil)
            #expect(m.end(.cancelled) == .none)
            #expect(m.lifecycle == .cancelled)
        }
        // The pump ends a source while it holds the reading state.
        var pumped = Self.machine("running")
        _ = pumped.checkOut()
        #expect(pumped.close(.finished) == .none)
        #expect(pumped.end(.finished) == .none)
        for state in ["idle", "starting", "started", "closing", "ended"] {
            var m = Self.machine(state)
            #expect(Self.isIllegal(m.close(.finished)), "close in \(state)")
        }
        var m = Self.machine("running")
        #expect(Self.isIllegal(m.close(.running)), "only a final state closes a stage")
    }
}

extension SourceMachine.Action: CustomStringConvertible {
    public var description: String {
        switch self {
        case .none: "none"
        case .startPlugin: "startPlugin"
        case .pump: "pump"
        case .release: "release"
        case .illegal(let m): "illegal(\(m))"
        }
    }
}
