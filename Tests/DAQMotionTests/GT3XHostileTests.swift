import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQMotion

/// The hostile .gt3x files of Tests/Fixtures/hostile (scripts/make-hostile-fixtures.py): numbers
/// that used to trap are errors naming the file, and a jump in time is filled only as far as the
/// device could have slept; past that it is a reported gap.
@Suite struct GT3XHostileTests {
    static func fixture(_ name: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/hostile/\(name)").path
    }

    @Test(arguments: [
        ("rate-inf.gt3x", "info.txt's Sample Rate is inf; expected from 1 to 10000"),
        ("rate-1e300.gt3x", "info.txt's Sample Rate is 1e+300; expected from 1 to 10000"),
        ("zip64-count.gt3x", "the member count in the zip64 record at byte "),
        ("zip64-size.gt3x", "the directory size in the zip64 record at byte "),
        ("zip64-locator.gt3x", "the zip64 record offset in the locator at byte "),
    ])
    func aNumberThatUsedToTrapIsAnError(name: String, message: String) {
        let path = Self.fixture(name)
        let said: String
        do {
            let (_, failure) = replayUntilFailure(try replay(path))
            said = failure.map { "\($0)" } ?? "no error"
        } catch {
            said = "\(error)"
        }
        #expect(said.hasPrefix("\(path): \(message)"), "\(said)")
    }

    /// An hours part beyond any zone is no zone: the clock is taken as UTC, as when none is named.
    @Test func aZoneThatOverflowsIsNoZone() throws {
        let (samples, events) = try replayAll(Self.fixture("zone-overflow.gt3x"))
        #expect(samples.count == 60)
        #expect(events.notices.contains { $0.hasPrefix("info.txt names no time zone") }, "\(events.notices)")
    }

    /// 10⁶ s between two records, with no idle-sleep record: lost seconds are filled, a lost
    /// fortnight is a gap. The two seconds read come out, and nothing else.
    @Test func aJumpNoDeviceLosesIsAGapNotAFill() throws {
        let (samples, events) = try replayAll(Self.fixture("fill-bomb.gt3x"))
        #expect(samples.count == 60)
        #expect(!samples.contains { $0["idle"] == .bool(true) })
        #expect(close(try #require(samples.last).timestamp - samples[0].timestamp, 1_000_000 + 29.0 / 30, 1e-6))
        #expect(events.notices.contains("1 gap(s) without samples, 999999 s in all"), "\(events.notices)")
        #expect(!events.notices.contains { $0.contains("idle-sleep span") }, "\(events.notices)")
    }

    /// Asleep, then a record near 2³² s: longer than any sleep and past info.txt's end.
    @Test func aSleepPastTheRecordingsEndIsAGap() throws {
        let (samples, events) = try replayAll(Self.fixture("fill-bomb-asleep.gt3x"))
        #expect(samples.count == 60)
        #expect(!samples.contains { $0["idle"] == .bool(true) })
        #expect(events.notices.contains { $0.hasPrefix("1 gap(s) without samples, ") }, "\(events.notices)")
    }

    /// The bound itself: lost seconds up to a minute, sleep up to a month, never past the end.
    @Test func theBoundFillsWhatADeviceCouldHaveSleptOrLost() {
        var bound = GT3XFillBound(endLocal: 1_000_000)
        bound.record(at: 0)
        #expect(bound.fills(from: 10, until: 70, asleep: false))
        #expect(!bound.fills(from: 10, until: 71, asleep: false))
        #expect(bound.fills(from: 10, until: 100_000, asleep: true))
        #expect(bound.fills(from: 900_000, until: 1_000_001, asleep: true))
        #expect(!bound.fills(from: 900_000, until: 1_000_002, asleep: true))
        var open = GT3XFillBound(endLocal: nil)
        open.record(at: 0)
        #expect(open.fills(from: 1, until: GT3XFillBound.sleepSeconds, asleep: true))
        #expect(!open.fills(from: 1, until: GT3XFillBound.sleepSeconds + 2, asleep: true))
        #expect(!open.fills(from: 5, until: 5, asleep: true))
    }

    /// A short sleep and lost seconds in an honest file are still filled (the cross-checked behaviour).
    @Test func anHonestSleepIsStillFilled() throws {
        let w = GT3XWriter.with {
            $0.seconds = 12
            $0.idleSleep = [3..<6]
            $0.missing = [8]
            $0.zip64 = true
        }
        let (samples, _) = try replayAll(try w.file())
        expectRows(samples, w.expectedRows(), "honest sleep in a zip64 file")
    }
}
