import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// Epochs start at multiples of their length from local midnight in the recording's zone,
/// through daylight-saving switches.
@Suite(.timeLimit(.minutes(20))) struct EpochAlignmentTests {
    /// One still sample every `step` seconds from UTC second `from` up to (not including) `to`.
    func stillSeconds(_ from: Double, _ to: Double, every step: Double = 1) -> [Sample] {
        stride(from: 0.0, to: to - from, by: step).map { t in
            Sample(timestamp: from + t, uptime: t, fields: ["x": 0, "y": 0, "z": 1])
        }
    }

    func starts(_ out: [Sample]) -> [Double] { out.map(\.timestamp) }
    func counts(_ out: [Sample]) -> [Int64] { out.map { $0["samples"]?.intValue ?? -1 } }

    @Test func epochsFollowTheLocalClockNotUTC() throws {
        // 22:13:20Z is 03:43:20 in Kolkata (+05:30): hour epochs start at :30 past UTC hours.
        let samples = stillSeconds(1_700_000_000, 1_700_007_200)
        let local = try epochs(EnmoTransform.self, "epoch: 1h\ntime_zone: Asia/Kolkata", samples)
        #expect(starts(local) == [1_699_997_400, 1_700_001_000, 1_700_004_600])
        #expect(counts(local) == [1000, 3600, 2600])
        let utc = try epochs(EnmoTransform.self, "epoch: 1h", samples)
        #expect(starts(utc) == [1_699_999_200, 1_700_002_800, 1_700_006_400], "UTC when no zone is known")
    }

    @Test func aLengthThatDoesNotDivideADayEndsTheDayShort() throws {
        // 86,400 = 7 · 12,342 + 6: the day's last 7 s epoch lasts 6 s, and the next day starts afresh.
        let midnight = 1_700_006_400.0
        let out = try epochs(EnmoTransform.self, "epoch: 7", stillSeconds(midnight - 20, midnight + 10))
        #expect(starts(out) == [midnight - 20, midnight - 13, midnight - 6, midnight, midnight + 7])
        #expect(counts(out) == [7, 7, 6, 7, 3])
    }

    /// Berlin falls back at 01:00Z on 2026-10-25 (03:00 CEST becomes 02:00 CET). 03:00 is
    /// 10,800 s after midnight, 6 past a multiple of 7; 02:00 is 7,200 s, 4 past one. So the 7 s
    /// epoch open at the switch ends there after 6 s, and the next starts at the switch and ends
    /// at 02:00:03 CET.
    @Test func anEpochEndsAtTheSwitchWhenDaylightSavingEnds() throws {
        let s = 1_792_890_000.0
        let out = try epochs(
            EnmoTransform.self, "epoch: 7\ntime_zone: Europe/Berlin", stillSeconds(s - 20, s + 20))
        #expect(starts(out) == [s - 20, s - 13, s - 6, s, s + 3, s + 10, s + 17])
        #expect(counts(out) == [7, 7, 6, 3, 7, 7, 3])
    }

    /// Berlin springs forward at 01:00Z on 2026-03-29 (02:00 CET becomes 03:00 CEST): 4 s
    /// before the switch, then 1 s to 03:00:01, the next multiple of 7 s from midnight.
    @Test func anEpochEndsAtTheSwitchWhenDaylightSavingStarts() throws {
        let s = 1_774_746_000.0
        let out = try epochs(
            EnmoTransform.self, "epoch: 7\ntime_zone: Europe/Berlin", stillSeconds(s - 11, s + 8))
        #expect(starts(out) == [s - 11, s - 4, s, s + 1])
        #expect(counts(out) == [7, 4, 1, 7])
    }

    /// A local day of 25 hours (2026-10-25 in Berlin) holds 1,500 one-minute epochs, one of 23
    /// hours (2026-03-29) 1,380, each starting at local midnight.
    @Test(arguments: [(1_792_879_200.0, 1_792_969_200.0, 1500), (1_774_738_800.0, 1_774_821_600.0, 1380)])
    func aDaylightSavingDayHasItsOwnLength(midnight: Double, next: Double, minutes: Int) throws {
        let out = try epochs(
            EnmoTransform.self, "epoch: 60\ntime_zone: Europe/Berlin", stillSeconds(midnight, next, every: 10))
        #expect(out.count == minutes)
        #expect(out.first?.timestamp == midnight && out.last?.timestamp == next - 60)
        #expect(out.allSatisfy { $0["samples"] == .int(6) })
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Berlin")!
        let local = out.map {
            calendar.dateComponents([.day, .hour, .minute, .second], from: Date(timeIntervalSince1970: $0.timestamp))
        }
        #expect(local.first.map { [$0.hour, $0.minute] } == [0, 0])
        #expect(local.last.map { [$0.hour, $0.minute] } == [23, 59])
        #expect(Set(local.map(\.day)).count == 1, "every epoch on the same local day")
        #expect(local.allSatisfy { $0.second == 0 })
    }

    /// With no `time_zone`, a pipeline's epochs take the zone the recording states: a GENEActiv
    /// file from a device clock at GMT +05:30, whose hours start half past UTC's.
    @Test func aPipelineTakesTheRecordingsZone() throws {
        var w = GENEActivWriter()
        w.timeZone = "GMT +05:30"
        let path = tempDirectory() + "/zoned.bin"
        try w.write(to: path, pages: 4) { i in .init(x: 0, y: 0, z: 255 + i % 3) }
        let first = try #require(try replayAll(path).samples.first?.timestamp)
        let localHour = ((first + 19_800) / 3600).rounded(.down) * 3600 - 19_800
        let utcHour = (first / 3600).rounded(.down) * 3600
        try #require(localHour != utcHour)
        func firstStart(_ extra: String) throws -> Double? {
            let yaml = """
                name: zoned
                clock: virtual
                sources:
                  accel: {type: motion.replay, path: "\(path)"}
                transforms:
                  epochs: {type: motion.enmo, inputs: [accel], epoch: 1h\(extra)}
                sinks:
                  out: {type: collect, inputs: [epochs]}
                """
            let outcome = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all)
            #expect(outcome.result.state == .finished)
            return outcome.data("out").first?.timestamp
        }
        #expect(try firstStart("") == localHour)
        #expect(try firstStart(", time_zone: UTC") == utcHour, "time_zone overrides it")
    }
}
