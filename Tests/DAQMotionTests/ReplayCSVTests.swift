import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

@Suite(.timeLimit(.minutes(20))) struct ReplayCSVTests {
    @Test func columnsFoundByNameAndExtraColumnsKept() throws {
        let path = recording(
            "walk.csv", "timestamp,x,y,z,temp,label\n100.00,1,2,3,20.5,\"a,b\"\n100.01,4,5,6,21,c\n100.02,7,8,9,,d\n")
        let (samples, events) = try replayAll(path)
        try #require(samples.count == 3)
        #expect(samples.map { $0.number("x") } == [1, 4, 7])
        #expect(samples.map { $0.number("z") } == [3, 6, 9])
        #expect(samples.map(\.timestamp) == [100.00, 100.01, 100.02])
        #expect(close(samples[1].uptime, 0.01) && samples[0].uptime == 0)
        #expect(samples[0]["temp"] == .double(20.5) && samples[1]["temp"] == .int(21) && samples[2]["temp"] == .null)
        #expect(samples[0]["label"] == .string("a,b"))
        #expect(samples[0].fields.keys == ["x", "y", "z", "temp", "label"])
        #expect(events.notices.contains { $0.contains("taken as s") })
    }

    @Test func columnsMappedInConfiguration() throws {
        let path = recording("dev.csv", "when,ax1,ay1,az1\n0,1,2,3\n0.5,4,5,6\n")
        let (samples, _) = try replayAll(path, "columns: {time: when, x: ax1, y: ay1, z: az1}")
        #expect(samples.map { $0.number("y") } == [2, 5])
        #expect(samples.map(\.uptime) == [0, 0.5])
    }

    @Test func headersWithUnitsInBracketsAreFound() throws {
        let path = recording("units.csv", "Time (s),X (g),Y (g),Z [g]\n0,0.1,0.2,0.98\n0.02,0.1,0.2,0.99\n")
        let (samples, _) = try replayAll(path)
        #expect(samples.map { $0.number("z") } == [0.98, 0.99])
    }

    @Test func preambleDetectedWithRateAndSemicolons() throws {
        let text = "Device: Logger 3000\nSample rate: 50 Hz\n\ntime;x;y;z\n0;1;2;3\n0.02;1;2;3\n0.04;1;2;3\n"
        let (samples, events) = try replayAll(recording("export.csv", text))
        #expect(samples.count == 3)
        #expect(samples.map(\.uptime).last.map { close($0, 0.04) } == true)
        let notices = events.notices
        #expect(notices.contains("skipped 3 line(s) of metadata before the header on line 4"))
        #expect(notices.contains("the preamble states a sample rate of 50 Hz"))
        #expect(notices.contains("cells are delimited by ';'"))
        #expect(notices.contains { $0.contains("sample rate from the timestamps ≈ 50 Hz") })
    }

    @Test func skipLinesAndTabsConfigured() throws {
        let text = "# exported\n# t\tx\ty\tz\nt\tx\ty\tz\n1\t1\t2\t3\n2\t4\t5\t6\n"
        let (samples, events) = try replayAll(
            recording("tabs.tsv", text), "skip_lines: 2\ndelimiter: \"\\t\"\ntime_unit: s")
        #expect(samples.map { $0.number("x") } == [1, 4])
        #expect(samples.map(\.uptime) == [0, 1])
        #expect(events.notices.contains("cells are delimited by tabs"))
    }

    @Test func millisecondsDetectedFromColumnName() throws {
        let (samples, events) = try replayAll(recording("ms.csv", "timestamp_ms,x,y,z\n0,1,1,1\n10,1,1,1\n20,1,1,1\n"))
        #expect(samples.map(\.uptime) == [0, 0.01, 0.02])
        #expect(events.notices.contains { $0.contains("taken as ms") && $0.contains("column name") })
    }

    @Test func millisecondsSince1970Detected() throws {
        let (samples, events) = try replayAll(
            recording("epoch.csv", "t,x,y,z\n1700000000000,1,1,1\n1700000000010,1,1,1\n"))
        #expect(samples.map(\.timestamp) == [1_700_000_000, 1_700_000_000.01])
        #expect(events.notices.contains { $0.contains("milliseconds since 1970") })
    }

    @Test func wholeNumberTimesTenApartAreMilliseconds() throws {
        let (samples, _) = try replayAll(recording("whole.csv", "time,x,y,z\n0,1,1,1\n10,1,1,1\n20,1,1,1\n30,1,1,1\n"))
        #expect(samples.map(\.uptime) == [0, 0.01, 0.02, 0.03])
    }

    @Test func configuredUnitOverridesDetection() throws {
        let (samples, events) = try replayAll(recording("s.csv", "time,x,y,z\n0,1,1,1\n10,1,1,1\n"), "time_unit: s")
        #expect(samples.map(\.uptime) == [0, 10])
        #expect(!events.notices.contains { $0.contains("taken as") })
    }

    @Test func isoDateTimesWithOffsets() throws {
        let text =
            "timestamp,x,y,z\n2024-03-01T12:00:00.000Z,1,1,1\n2024-03-01T13:00:00.010+01:00,1,1,1\n2024-03-01 12:00:00.020Z,1,1,1\n"
        let (samples, events) = try replayAll(recording("iso.csv", text))
        try #require(samples.count == 3)
        #expect(samples[0].timestamp == 1_709_294_400)
        #expect(close(samples[1].timestamp, 1_709_294_400.01, 1e-6) && close(samples[2].uptime, 0.02, 1e-6))
        #expect(events.notices.contains { $0.contains("date-time text") })
    }

    @Test func patternedDateTimesInTheConfiguredZone() throws {
        let text = "time,x,y,z\n01.03.2024 13:00:00.000,1,1,1\n01.03.2024 13:00:00.500,1,1,1\n"
        let (samples, _) = try replayAll(
            recording("berlin.csv", text),
            "time_unit: datetime\ntime_format: dd.MM.yyyy HH:mm:ss.SSS\ntime_zone: Europe/Berlin")
        #expect(samples.map(\.timestamp) == [1_709_294_400, 1_709_294_400.5])
    }

    @Test func dateTimesWithoutOffsetTakeTheTimeZone() throws {
        let text = "time,x,y,z\n2024-07-01T14:00:00.000,1,1,1\n"
        let (samples, _) = try replayAll(recording("local.csv", text), "time_zone: Europe/Berlin")
        // 14:00 in Berlin in summer is 12:00 UTC.
        #expect(samples.map(\.timestamp) == [1_719_835_200])
    }

    @Test(arguments: ["walk.csv.gz", "walk.csv"])
    func gzipReadDirectlyWhateverTheName(name: String) throws {
        let plain = recording("plain.csv", "t,x,y,z\n" + (0..<5000).map { "\(Double($0) / 100),\($0),1,2\n" }.joined())
        let target = (tempDirectory() as NSString).appendingPathComponent(name)
        _ = try gzip(plain, to: target)
        let (samples, _) = try replayAll(target)
        #expect(samples.count == 5000)
        #expect(samples.last?.number("x") == 4999)
        #expect(samples.last.map { close($0.uptime, 49.99) } == true)
    }
}

/// The rate the log states is the one `daq inspect` reports: from the typical interval, not
/// from one interval and its jitter.
@Suite(.timeLimit(.minutes(20))) struct MeasuredRateTests {
    @Test func theShippedWalkIsStatedAt100HzAsInspectSaysIt() throws {
        let walk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("recordings/walk.csv").path
        let (samples, events) = try replayAll(walk)
        #expect(samples.count == 6000)
        #expect(
            events.notices.contains("replayed 6000 samples; sample rate from the timestamps ≈ 100 Hz"),
            "\(events.notices)")
    }

    @Test func jitterAroundTheRateDoesNotMoveIt() throws {
        // 50 Hz with ±2 ms of alternating jitter, and one 0.5 s gap.
        var rows = ["t,x,y,z"]
        var t = 0.0
        for i in 0..<200 {
            rows.append("\(t),0,0,1")
            t += 0.02 + (i % 2 == 0 ? 0.002 : -0.002) + (i == 100 ? 0.5 : 0)
        }
        let (_, events) = try replayAll(recording("jitter.csv", rows.joined(separator: "\n") + "\n"))
        #expect(
            events.notices.contains { $0.hasSuffix("sample rate from the timestamps ≈ 50 Hz") }, "\(events.notices)")
    }
}
