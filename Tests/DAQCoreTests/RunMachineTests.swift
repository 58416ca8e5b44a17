import Dispatch
import Testing

@testable import DAQCore

/// The run's transition table, row by row, with the orders past fixes were about.
@Suite("Run state machine", .timeLimit(.minutes(20)))
struct RunMachineTests {
    typealias M = RunMachine
    static let boom = DAQError(.pluginFailed, "boom", component: "x")
    static let all = ["idle", "starting", "running", "paused", "stopping", "ended"]

    static func machine(_ state: String, stages: Int = 2) -> M {
        var m = M()
        if state == "idle" { return m }
        _ = m.start()
        if state == "starting" { return m }
        _ = m.started(stages: stages)
        switch state {
        case "running": break
        case "paused": _ = m.pause()
        case "stopping": _ = m.stop()
        case "ended":
            for i in 0..<stages { _ = m.stageFinished(ObjectIdentifier(Self.ids[i]), at: 1) }
        default: Issue.record("no state \(state)")
        }
        return m
    }

    static let ids = (0..<4).map { _ in DispatchGroup() }

    static func isIllegal(_ a: M.Action) -> Bool {
        if case .illegal = a { return true }
        return false
    }

    /// A second `start()` used to restart every plugin and leave `wait()` hanging.
    @Test func startIsLegalOnlyOnce() {
        var m = M()
        #expect(m.start() == .none)
        #expect(m.lifecycle == .starting)
        for state in Self.all where state != "idle" {
            var other = Self.machine(state)
            let before = other.lifecycle
            #expect(Self.isIllegal(other.start()), "start in \(state)")
            #expect(other.lifecycle == before)
        }
    }

    @Test func startedCountsTheStagesIn() {
        var m = Self.machine("starting")
        #expect(m.started(stages: 3) == .none)
        #expect(m.lifecycle == .running)
        for state in Self.all where state != "starting" {
            var other = Self.machine(state)
            #expect(Self.isIllegal(other.started(stages: 1)), "started in \(state)")
        }
    }

    @Test func aFailedStartEndsTheRunFailed() {
        var m = Self.machine("starting")
        #expect(m.startFailed(Self.boom, at: 5) == .none)
        #expect(m.lifecycle == .failed && m.failure == Self.boom && m.endDate == 5)
        var running = Self.machine("running")
        #expect(Self.isIllegal(running.startFailed(Self.boom, at: 5)))
    }

    /// Stops, cancels and failures that come while the plugins start are kept for the end of it.
    @Test func whatComesWhileStartingIsTakenOnceStarted() {
        var stop = Self.machine("starting")
        #expect(stop.stop() == .none)
        #expect(stop.lifecycle == .starting)
        #expect(stop.started(stages: 1) == .stop)
        #expect(stop.lifecycle == .stopping)

        var cancel = Self.machine("starting")
        _ = cancel.stop()
        #expect(cancel.cancel() == .none)
        #expect(cancel.isCancelled)
        #expect(cancel.started(stages: 1) == .cancel)

        var failed = Self.machine("starting")
        #expect(failed.stageFailed(Self.boom) == .none)
        #expect(failed.failure == Self.boom)
        #expect(failed.started(stages: 1) == .stop)
        #expect(failed.lifecycle == .stopping)
    }

    @Test func stopMovesARunningOrPausedRunOnce() {
        for state in ["running", "paused"] {
            var m = Self.machine(state)
            #expect(m.stop() == .stop, "stop in \(state)")
            #expect(m.lifecycle == .stopping)
            #expect(m.stop() == .none, "a second stop in \(state) tells nobody again")
        }
        for state in ["idle", "ended"] {
            var m = Self.machine(state)
            let before = m.lifecycle
            #expect(m.stop() == .none)
            #expect(m.lifecycle == before)
        }
    }

    /// A cancel used to leave the run reading `running` until the very end.
    @Test func aCancelIsStoppingAtOnceAndOnlyOnce() {
        for state in ["running", "paused", "stopping"] {
            var m = Self.machine(state)
            #expect(m.cancel() == .cancel, "cancel in \(state)")
            #expect(m.lifecycle == .stopping && m.isCancelled)
            #expect(m.cancel() == .none)
        }
        var ended = Self.machine("ended")
        #expect(ended.cancel() == .none)
        #expect(ended.lifecycle == .finished)
    }

    @Test func pauseAndResume() {
        var m = Self.machine("running")
        #expect(m.pause() == .pause)
        #expect(m.pause() == .none)
        #expect(m.resume() == .resume)
        #expect(m.resume() == .none)
        for state in ["idle", "starting", "stopping", "ended"] {
            var other = Self.machine(state)
            let before = other.lifecycle
            #expect(other.pause() == .none && other.resume() == .none, "pause/resume in \(state)")
            #expect(other.lifecycle == before)
        }
    }

    @Test func theFirstFailureIsKeptAndStopsTheRun() {
        var m = Self.machine("running")
        #expect(m.stageFailed(Self.boom) == .stop)
        #expect(m.lifecycle == .stopping)
        #expect(m.stageFailed(DAQError(.pluginFailed, "later")) == .none)
        #expect(m.failure == Self.boom)
        var paused = Self.machine("paused")
        #expect(paused.stageFailed(Self.boom) == .stop)
        var idle = M()
        #expect(Self.isIllegal(idle.stageFailed(Self.boom)))
    }

    /// The run ends when its last counted stage ends, whatever state it is in then, and ends
    /// `failed` over `cancelled` over `finished`.
    @Test func theLastStageEndsTheRunWithTheRightFinalState() {
        var m = Self.machine("running", stages: 2)
        #expect(m.stageFinished(ObjectIdentifier(Self.ids[0]), at: 1).ended == false)
        #expect(m.lifecycle == .running)
        #expect(m.stageFinished(ObjectIdentifier(Self.ids[1]), at: 2).ended)
        #expect(m.lifecycle == .finished && m.endDate == 2)

        var c = Self.machine("running", stages: 1)
        _ = c.cancel()
        _ = c.stageFailed(Self.boom)
        _ = c.stageFinished(ObjectIdentifier(Self.ids[0]), at: 1)
        #expect(c.lifecycle == .failed, "a failure outranks the cancel")

        var k = Self.machine("paused", stages: 1)
        _ = k.cancel()
        _ = k.stageFinished(ObjectIdentifier(Self.ids[0]), at: 1)
        #expect(k.lifecycle == .cancelled)
    }

    /// A reload counts new stages in only while the run goes on, and hands back the group a
    /// retired stage's end is waited for in.
    @Test func aReloadCountsInWhileRunningAndRetiresIntoAGroup() {
        var m = Self.machine("running", stages: 1)
        let counted = m.countIn(1)
        #expect(counted)
        let group = DispatchGroup()
        m.retire(ObjectIdentifier(Self.ids[0]), into: group)
        let (g, ended) = m.stageFinished(ObjectIdentifier(Self.ids[0]), at: 1)
        #expect(g === group && !ended)
        #expect(m.stageFinished(ObjectIdentifier(Self.ids[1]), at: 2).ended)
        for state in ["idle", "starting", "stopping", "ended"] {
            var other = Self.machine(state)
            let counted = other.countIn(1)
            #expect(!counted, "count in while \(state)")
        }
    }
}
