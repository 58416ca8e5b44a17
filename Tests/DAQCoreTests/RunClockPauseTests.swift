import Dispatch
import Testing

@testable import DAQCore

/// A pause holds the run clock: a replay waits where it stands and goes on at its recorded
/// spacing, and `--duration` counts only the time the clock ran.
@Suite(.timeLimit(.minutes(20))) struct RunClockPauseTests {
    @Test(arguments: [ClockMode.replay, .realtime])
    func aHeldClockStandsStillAndGoesOnFromWhereItStood(mode: ClockMode) {
        let clock = RunClock(mode: mode, speed: 4)
        let before = clock.deadline(forUptime: 10)!
        #expect(clock.hold() && !clock.hold())
        let held = clock.now()
        let heldAt = DispatchTime.now().uptimeNanoseconds
        // Work, not sleep: the clock must not move however long the pause lasts.
        var spins = 0
        while DispatchTime.now().uptimeNanoseconds - heldAt < 2_000_000 { spins += 1 }
        #expect(clock.now() == held && clock.isHeld)
        // Nothing falls due while held: whoever waits is woken after the release.
        #expect(clock.deadline(forUptime: held) == .distantFuture)
        #expect(!clock.isDue(held + 1e-6))
        let releasing = DispatchTime.now().uptimeNanoseconds
        #expect(clock.release() && !clock.release())
        let after = clock.now()
        let sinceRelease = Double(DispatchTime.now().uptimeNanoseconds - releasing) / 1e9
        // It goes on from where it stood: since the release it moved no more than the time since
        // (at the replay's speed), however long the pause or the machine's load.
        let pace = mode == .replay ? 4.0 : 1.0
        #expect(after >= held && after - held <= sinceRelease * pace + 1e-9, "\(after - held) s in \(sinceRelease) s")
        // Every later sample is due as much later as the pause lasted, so none comes in a burst.
        let moved = clock.deadline(forUptime: 10)!.uptimeNanoseconds - before.uptimeNanoseconds
        #expect(moved >= 2_000_000, "deadline moved by \(moved) ns after a pause of 2 ms or more (\(spins) spins)")
    }

    /// Each pause is kept where the clock stood, with its wall dates, for the sinks' markers.
    @Test(arguments: [ClockMode.replay, .realtime, .virtual])
    func everyPauseIsRecordedWithWhereTheClockStood(mode: ClockMode) {
        let clock = RunClock(mode: mode, speed: 2)
        #expect(clock.pauses().pauses.isEmpty && clock.pauseVersion == 0)
        clock.hold()
        let held = clock.now()
        let (pauses, version) = clock.pauses()
        #expect(version == 1 && version == clock.pauseVersion)
        #expect(pauses == [ClockPause(uptime: held, heldDate: pauses[0].heldDate)])
        #expect(pauses[0].heldDate >= clock.startDate && pauses[0].pausedSeconds == nil)
        clock.release()
        clock.hold()
        clock.release()
        let after = clock.pauses().pauses
        #expect(clock.pauseVersion == 4 && after.count == 2)
        #expect(after[0].uptime == held && after[1].uptime >= held)
        #expect(after.allSatisfy { ($0.pausedSeconds ?? -1) >= 0 && $0.releasedDate! >= $0.heldDate })
    }

    @Test func theVirtualClockHasNoWallTimeToHold() {
        let clock = RunClock(mode: .virtual)
        #expect(clock.deadline(forUptime: 5) == nil && clock.isDue(5))
    }
}
