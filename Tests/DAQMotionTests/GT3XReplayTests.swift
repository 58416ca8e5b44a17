import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// ActiGraph .gt3x through `motion.replay`, on files made by the DAQTesting writer: both
/// activity record types, the scale's three sources, idle sleep, lost seconds, corrupt records,
/// time zones, and reading in batches of any size.
@Suite(.timeLimit(.minutes(20))) struct GT3XReplayTests {
    @Test func activity2IsReadWithItsInfoAndLocalTimeTurnedIntoUTC() throws {
        let w = GT3XWriter()
        let path = try w.file()
        let (samples, events) = try replayAll(path)
        expectRows(samples, w.expectedRows(), "ACTIVITY2")
        let first = try #require(events.notices.first)
        #expect(
            first.hasPrefix(
                "format gt3x, device wGT3XBT #MOS2E12345678, configured at 30 Hz, starting 2023-11-14T23:13:20.000+01:00"
            ), "\(first)")
        #expect(first.contains("(device clock in +01:00)"), "\(first)")
        #expect(first.contains("firmware 1.9.2"), "\(first)")
        #expect(events.notices.contains("256 counts per g, from the PARAMETERS record"), "\(events.notices)")
        #expect(samples.allSatisfy { $0["idle"] == nil })
    }

    @Test(arguments: [30, 33, 100])
    func packedActivityIsReadAtAnyRateOddOrEven(rate: Int) throws {
        // An odd rate leaves half a byte over at the end of each record.
        let w = GT3XWriter.with {
            $0.activity = .activity
            $0.rate = rate
            $0.scale = 341
            $0.counts = { n in (x: (n * 37) % 4095 - 2047, y: 2047 - (n * 11) % 4095, z: (n % 2 == 0) ? -2048 : 2047) }
        }
        let (samples, _) = try replayAll(try w.file())
        expectRows(samples, w.expectedRows(), "ACTIVITY at \(rate) Hz")
    }

    @Test func theScaleComesFromInfoTxtOrTheSerialWhenThereAreNoParameters() throws {
        let fromInfo = GT3XWriter.with {
            $0.parameters = false
            $0.scale = 300
        }
        let (a, e1) = try replayAll(try fromInfo.file())
        expectRows(a, fromInfo.expectedRows(), "scale from info.txt")
        #expect(e1.notices.contains("300 counts per g, from info.txt"))

        let fromSerial = GT3XWriter.with {
            $0.parameters = false
            $0.infoScale = false
            $0.serial = "NEO1F12345678"
            $0.scale = 341
            $0.activity = .activity
        }
        let (b, e2) = try replayAll(try fromSerial.file())
        expectRows(b, fromSerial.expectedRows(), "scale from the serial")
        #expect(e2.notices.contains("341 counts per g, as the specification gives for serial numbers starting NEO"))
    }

    @Test func idleSleepIsFilledWithTheLastSampleAndFlagged() throws {
        let w = GT3XWriter.with {
            $0.seconds = 12
            $0.idleSleep = [3..<6, 9..<12]
        }
        let path = try w.file()
        let (samples, events) = try replayAll(path)
        expectRows(samples, w.expectedRows(), "idle sleep")
        #expect(samples.filter { $0["idle"] == .bool(true) }.count == 6 * 30)
        #expect(
            events.notices.contains("2 idle-sleep span(s) filled with the last sample (idle: true), 6 s in all"),
            "\(events.notices)")
    }

    @Test func lostSecondsAreFilledLikeIdleSleep() throws {
        let w = GT3XWriter.with { $0.missing = [4, 5] }
        let (samples, events) = try replayAll(try w.file())
        expectRows(samples, w.expectedRows(), "lost seconds")
        #expect(
            events.notices.contains("1 idle-sleep span(s) filled with the last sample (idle: true), 2 s in all"),
            "\(events.notices)")
    }

    @Test func aCorruptRecordIsReportedSkippedAndLeavesAGap() throws {
        let w = GT3XWriter.with { $0.corrupt = [3] }
        let path = try w.file()
        let (samples, events) = try replayAll(path, "on_bad_row: skip")
        expectRows(samples, w.expectedRows(), "corrupt record skipped")
        // Records: metadata, parameters, battery, lux, then one a second: second 3 is record 8.
        let warning = try #require(events.warnings.first)
        #expect(warning.hasPrefix("skipped \(path):8: log.bin record 8 at byte "), "\(warning)")
        #expect(warning.hasSuffix(" fails its checksum; skipped"), "\(warning)")
        #expect(events.warnings.contains("skipped 1 corrupt block(s) in all"), "\(events.warnings)")
        #expect(events.notices.contains("1 gap(s) without samples, 1 s in all"), "\(events.notices)")
    }

    @Test func aCorruptRecordFailsTheRunByDefaultAfterTheSamplesBeforeIt() throws {
        let w = GT3XWriter.with { $0.corrupt = [3] }
        let path = try w.file()
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 90)
        #expect("\(try #require(error))".hasPrefix("\(path):8: log.bin record 8 at byte "))
    }

    @Test func timeZoneOverridesInfoTxtAndFollowsDaylightSaving() throws {
        // 2024-07-01 and 2024-01-15, 12:00 device time; the device says nothing of its zone.
        for (start, offset) in [(1_719_835_200, 7200), (1_705_320_000, 3600)] {
            let w = GT3XWriter.with {
                $0.start = start - offset
                $0.utcOffset = offset
                $0.writesTimeZone = false
            }
            let (samples, events) = try replayAll(try w.file(), "time_zone: Europe/Berlin")
            expectRows(samples, w.expectedRows(), "Europe/Berlin at \(start)")
            #expect(events.notices.first?.contains("(device clock in Europe/Berlin)") == true)
        }
        let plain = GT3XWriter.with {
            $0.writesTimeZone = false
            $0.utcOffset = 0
        }
        let (_, events) = try replayAll(try plain.file())
        #expect(events.notices.contains { $0.hasPrefix("info.txt names no time zone") })
    }

    @Test(arguments: [1, 7, 29, 4096])
    func anyBatchSizeGivesTheSameSamples(batch: Int) throws {
        let w = GT3XWriter.with {
            $0.seconds = 20
            $0.idleSleep = [5..<9]
            $0.missing = [13]
            $0.activity = .activity
        }
        let h = try replay(try w.file())
        let (samples, status) = try h.read(batchSize: batch)
        #expect(status == .finished)
        expectRows(samples, w.expectedRows(), "batches of \(batch)")
    }

    @Test func storedMembersAndAnyNameAreReadByContent() throws {
        let w = GT3XWriter.with { $0.method = .stored }
        let (samples, events) = try replayAll(try w.file("recording.dat"))
        expectRows(samples, w.expectedRows(), "stored, named .dat")
        #expect(events.notices.first?.hasPrefix("format gt3x") == true)
    }
}

/// What a run's manifest says about a .gt3x it replayed.
@Suite(.timeLimit(.minutes(20))) struct GT3XManifestTests {
    @Test func theManifestNamesDeviceZoneRateAndTheIdleSleepFilled() throws {
        let w = GT3XWriter.with {
            $0.seconds = 12
            $0.idleSleep = [4..<7]
        }
        let path = try w.file()
        let base = tempDirectory()
        let yaml = """
            name: gt3x
            clock: virtual
            sources: {accel: {type: motion.replay, path: "\(path)"}}
            sinks: {log: {type: logger.jsonl, inputs: [accel], directory: "\(base)"}}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all + SampleLoggerPlugins.all)
        #expect(outcome.result.state == .finished)
        let dir = base + "/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: base).first))
        let manifest = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))))
        guard case .object(let m) = manifest, case .array(let inputs)? = m["inputs"],
            case .object(let input)? = inputs.first
        else {
            Issue.record("no inputs in the manifest")
            return
        }
        #expect(input["format"] == .string("gt3x"))
        #expect(input["device"] == .string("wGT3XBT") && input["serial"] == .string("MOS2E12345678"))
        #expect(input["timeZone"] == .string("+01:00") && input["nominalRate"]?.doubleValue == 30)
        #expect(input["samples"] == .int(360))
        #expect(input["corruptBlocks"] == .int(0))
        guard case .array(let idle)? = input["idleFilled"] else {
            Issue.record("no idleFilled")
            return
        }
        #expect(idle.count == 1)
        // On the device's clock, with its offset: the same instants as UTC, joinable to a local diary.
        let device = TimeZone(secondsFromGMT: 3600)!
        #expect(
            idle.first
                == .object([
                    "start": .string(ISODate.string(Double(w.start + 4), timeZone: device)),
                    "end": .string(ISODate.string(Double(w.start + 7), timeZone: device)),
                ]))
        #expect(input["start"] == .string("2023-11-14T23:13:20.000+01:00"))
        #expect(input["end"] == .string("2023-11-14T23:13:31.967+01:00"))
    }
}

/// A logger fed a device recording writes every row's date on the device's clock.
@Suite(.timeLimit(.minutes(20))) struct DeviceClockLoggerTests {
    @Test(arguments: ["logger.csv", "logger.jsonl"])
    func everyRowCarriesTheDeviceDateAndTime(logger: String) throws {
        let w = GT3XWriter.with {
            $0.seconds = 3
            $0.utcOffset = 3600
        }
        let base = tempDirectory()
        let yaml = """
            name: gt3x
            clock: virtual
            sources: {accel: {type: motion.replay, path: "\(try w.file())"}}
            sinks: {log: {type: \(logger), inputs: [accel], directory: "\(base)"}}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all + SampleLoggerPlugins.all)
        #expect(outcome.result.state == .finished)
        let dir = base + "/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: base).first))
        let file = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasPrefix("accel.") })
        let lines = try String(contentsOfFile: dir + "/" + file, encoding: .utf8).split(separator: "\n").map(
            String.init)
        // Data rows, not the run's start and end markers (whose `marker` column says which).
        let rows = (logger == "logger.csv" ? Array(lines.dropFirst()) : lines).filter {
            logger == "logger.csv"
                ? $0.split(separator: ",", omittingEmptySubsequences: false)[4].isEmpty : $0.contains("\"x\":")
        }
        #expect(rows.count == 90)
        // 1_700_000_000 is 2023-11-14T22:13:20Z: 23:13:20 on a device at +01:00.
        let dates = rows.map { row -> String in
            if logger == "logger.csv" { return String(row.split(separator: ",", omittingEmptySubsequences: false)[3]) }
            guard case .object(let o)? = try? JSONParser.parse(Array(row.utf8)) else { return "" }
            return o["timestampDate"]?.stringValue ?? ""
        }
        #expect(dates.first == "2023-11-14T23:13:20.000+01:00")
        #expect(dates[1] == "2023-11-14T23:13:20.033+01:00")
        #expect(dates.last == "2023-11-14T23:13:22.967+01:00")
    }
}
