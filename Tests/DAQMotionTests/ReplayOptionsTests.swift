import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// `rows` rows at 10 Hz from time 0, x = row index.
func tenHertz(_ rows: Int) -> String {
    "t,x,y,z\n" + (0..<rows).map { "\(Double($0) / 10),\($0),0,1\n" }.joined()
}

@Suite(.timeLimit(.minutes(20))) struct ReplayOptionsTests {
    @Test func startAndEndCutTheRecording() throws {
        let (samples, _) = try replayAll(recording("r.csv", tenHertz(100)), "start: 2 s\nend: 5 s")
        #expect(samples.first?.number("x") == 20 && samples.last?.number("x") == 50)
        #expect(samples.count == 31)
        // The run clock counts from `start`.
        #expect(samples.first?.uptime == 0 && samples.last.map { close($0.uptime, 3) } == true)
    }

    @Test func loopStartsOverOnePeriodLaterOnTheRunClock() throws {
        let h = try replay(recording("r.csv", tenHertz(5)), "loop: true")
        let (samples, status) = try h.read(limit: 12, batchSize: 4)
        #expect(status == .more)
        #expect(samples.map { $0.number("x") } == [0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1])
        for (i, s) in samples.enumerated() { #expect(close(s.uptime, Double(i) / 10), "sample \(i) at \(s.uptime)") }
    }

    @Test func skipReportsEachBadRowByLineAndKeepsTheRest() throws {
        let text = "t,x,y,z\n0,1,1,1\n0.1,abc,1,1\n0.2,3,3,3\n0.3,4,4\n0.4,5,5,5\n"
        let path = recording("bad.csv", text)
        let (samples, events) = try replayAll(path, "on_bad_row: skip")
        #expect(samples.map { $0.number("x") } == [1, 3, 5])
        #expect(
            events.warnings == [
                "skipped \(path):3: x is not a number: 'abc'",
                "skipped \(path):5: expected 4 cells as in the header, found 3",
            ])
    }

    @Test func manyBadRowsAreListedUpToALimitThenCounted() throws {
        let text = "t,x,y,z\n" + (0..<30).map { "\($0),x\($0),1,1\n" }.joined() + "99,1,1,1\n"
        let (samples, events) = try replayAll(recording("bad.csv", text), "on_bad_row: skip\ntime_unit: s")
        #expect(samples.count == 1)
        let warnings = events.warnings
        #expect(warnings.count == 21)
        #expect(warnings.last == "skipped 30 bad rows in all (the first 20 are listed above)")
    }

    @Test func failEmitsTheRowsBeforeThenStopsNamingTheLine() throws {
        let path = recording("bad.csv", tenHertz(10).replacingOccurrences(of: "\n0.7,7,", with: "\n0.7,seven,"))
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 7)
        #expect("\(try #require(error))" == "\(path):9: x is not a number: 'seven'")
    }

    @Test func timestampsGoingBackAreReportedWithLineNumbers() throws {
        let path = recording("back.csv", "t,x,y,z\n0,1,1,1\n0.1,1,1,1\n0.05,1,1,1\n0.2,1,1,1\n")
        let (samples, events) = try replayAll(path, "time_unit: s")
        #expect(samples.count == 4)
        #expect(events.warnings == ["\(path):4: timestamp goes back by 0.05 s"])
    }

    @Test func invalidOptionsAreRefusedWithTheKey() throws {
        func issue(_ yaml: String) -> String? {
            do {
                _ = try PluginConfigLoader.decode(MotionReplaySource.Configuration.self, yaml: "path: a.csv\n" + yaml)
                return nil
            } catch let e as ConfigIssue {
                return e.path.joined(separator: ".") + ": " + e.message
            } catch {
                return "\(error)"
            }
        }
        #expect(issue("delimiter: ab") == "delimiter: expected one character such as ',', ';' or '\\t', found 'ab'")
        #expect(issue("skip_lines: -1") == "skip_lines: must be 0 or more")
        #expect(issue("time_zone: Mars/Olympus") == "time_zone: unknown time zone 'Mars/Olympus'")
        #expect(issue("start: 5 s\nend: 2 s") == "end: must be after start")
        #expect(
            issue("time_unit: ms\ntime_format: yyyy") == "time_format: a date-time pattern needs time_unit: datetime")
        #expect(issue("time_unit: datetime") == nil)
    }
}
