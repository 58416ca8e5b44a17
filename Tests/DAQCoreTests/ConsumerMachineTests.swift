import Testing

@testable import DAQCore

/// The transform and sink stages' transition table, row by row.
@Suite("Consumer stage state machine", .timeLimit(.minutes(20)))
struct ConsumerMachineTests {
    typealias M = ConsumerMachine

    static func machine(_ state: String) -> M {
        var m = M()
        switch state {
        case "idle": break
        case "starting": _ = m.start()
        case "running":
            _ = m.start()
            _ = m.started()
        case "failing":
            _ = m.start()
            _ = m.started()
            _ = m.fail()
        case "cancelling":
            _ = m.start()
            _ = m.started()
            _ = m.cancel()
        case "closing":
            _ = m.start()
            _ = m.started()
            _ = m.close(.finished)
        case "ended": _ = m.end(.finished)
        default: Issue.record("no state \(state)")
        }
        return m
    }

    static let all = ["idle", "starting", "running", "failing", "cancelling", "closing", "ended"]

    static func isIllegal(_ a: M.Action) -> Bool {
        if case .illegal = a { return true }
        return false
    }

    @Test func startAndStartedAreLegalOnceEachInOrder() {
        var m = M()
        #expect(m.start() == .startPlugin)
        #expect(m.started() == .drain)
        #expect(m.state == .running(.init()))
        for state in Self.all where state != "idle" {
            var other = Self.machine(state)
            let before = other.state
            #expect(Self.isIllegal(other.start()), "start in \(state)")
            #expect(other.state == before)
        }
        for state in Self.all where state != "starting" {
            var other = Self.machine(state)
            #expect(Self.isIllegal(other.started()), "started in \(state)")
        }
    }

    /// A reload wires a new stage before it starts: what arrives then waits in its input buffer.
    @Test func aWakeBeforeTheStartTakesNothing() {
        for state in ["idle", "starting", "ended"] {
            var m = Self.machine(state)
            #expect(m.wake() == .none, "wake in \(state)")
        }
        for state in ["running", "failing", "cancelling"] {
            var m = Self.machine(state)
            #expect(m.wake() == .drain, "wake in \(state)")
        }
    }

    /// A failed stage is not final while it still discards its producers' input; it reports
    /// `stopping` until its inputs end, and `failed` only then.
    @Test func aFailureDiscardsUntilTheInputsEndThenEndsFailed() {
        var m = Self.machine("running")
        #expect(m.fail() == .drain)
        #expect(m.state == .failing)
        #expect(m.lifecycle == .stopping)
        #expect(!m.isRunning)
        #expect(m.fail() == .none, "a second failure changes nothing")
        #expect(m.cancel() == .none)
        #expect(m.state == .failing, "a cancel does not hide the failure")
        #expect(m.end(.failed) == .none)
        #expect(m.lifecycle == .failed)
    }

    /// e79e848: a cancelled run still finishes its transforms, so they close what they opened.
    @Test func aCancelDiscardsAndStillFinishes() {
        var m = Self.machine("running")
        #expect(m.cancel() == .drain)
        #expect(m.state == .cancelling)
        #expect(m.fail() == .drain, "the plugin can fail while it finishes")
        #expect(m.state == .failing)
    }

    @Test func aCancelBeforeTheStartIsTakenAtTheStart() {
        var m = M()
        #expect(m.cancel() == .none)
        _ = m.start()
        #expect(m.cancel() == .none)
        #expect(m.started() == .drain)
        #expect(m.state == .cancelling)
    }

    @Test func retiringMarksARunningStageOnly() {
        var m = Self.machine("running")
        #expect(m.retire() == .none)
        #expect(m.state == .running(.init(retiring: true)))
        for state in Self.all where state != "running" {
            var other = Self.machine(state)
            let before = other.state
            #expect(other.retire() == .none)
            #expect(other.state == before)
        }
    }

    @Test func aTickBelongsToTheRunningState() {
        var m = Self.machine("running")
        m.setTick(2.5)
        #expect(m.state == .running(.init(tickAt: 2.5)))
        _ = m.cancel()
        m.setTick(9)
        #expect(m.state == .cancelling, "a tick cannot outlive the running state")
    }

    /// A transform may ask for its first tick in `start`.
    @Test func aTickAskedForWhileStartingIsKept() {
        var m = Self.machine("starting")
        m.setTick(1.5)
        _ = m.started()
        #expect(m.state == .running(.init(tickAt: 1.5)))
    }

    @Test func theEndIsFinalAndComesOnce() {
        for state in Self.all where state != "ended" {
            var m = Self.machine(state)
            #expect(m.end(.finished) == .none, "end in \(state)")
            #expect(Self.isIllegal(m.end(.failed)), "a second end in \(state)")
            #expect(m.lifecycle == .finished)
            #expect(m.wake() == .none && m.fail() == .none && m.cancel() == .none)
        }
        var m = M()
        #expect(Self.isIllegal(m.end(.stopping)))
    }

    /// A plugin whose finish completes later: the stage waits, `stopping`, for nothing but its end.
    @Test func aFinishThatCompletesLaterClosesThenEnds() {
        for (state, final) in [("running", LifecycleState.finished), ("failing", .failed), ("cancelling", .cancelled)] {
            var m = Self.machine(state)
            #expect(m.close(final) == .none, "close in \(state)")
            #expect(m.state == .closing(final))
            #expect(m.lifecycle == .stopping)
            #expect(!m.isRunning)
            #expect(m.wake() == .none && m.fail() == .none && m.cancel() == .none && m.retire() == .none)
            m.setTick(3)
            #expect(m.state == .closing(final), "nothing but the end moves it")
            #expect(m.end(final) == .none)
            #expect(m.lifecycle == final)
        }
        for state in ["idle", "starting", "closing", "ended"] {
            var m = Self.machine(state)
            let before = m.state
            #expect(Self.isIllegal(m.close(.finished)), "close in \(state)")
            #expect(m.state == before)
        }
        var m = Self.machine("running")
        #expect(Self.isIllegal(m.close(.running)), "only a final state closes a stage")
    }
}
