import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// Axivity .cwa through `motion.replay`, on files made by the DAQTesting writer: AX3 packed and
/// unpacked, AX6 with its gyroscope, times spread between sector timestamps, time zones,
/// detection by content (gzip too), and reading in batches of any size.
@Suite(.timeLimit(.minutes(20))) struct CWAReplayTests {
    @Test func packedAX3IsReadWithItsHeader() throws {
        let w = CWAWriter()
        let (samples, events) = try replayAll(try w.file())
        expectCWARows(samples, w.expectedRows(), "AX3 packed")
        let first = try #require(events.notices.first)
        #expect(
            first.hasPrefix("format cwa, device AX3 #71234, configured at 100 Hz, starting 2023-11-14T22:13:20.25"),
            "\(first)")
        #expect(
            first.contains("(device clock in UTC)") && first.contains("session 4321") && first.contains("range ±8 g"),
            "\(first)")
        #expect(first.contains("metadata Subject Code=P01; Body Location=left wrist; Notes=test file"), "\(first)")
        #expect(
            events.notices.contains {
                $0.hasPrefix(".cwa times are the device's local clock and the file names no zone")
            })
    }

    @Test(arguments: [6.25, 25, 100, 400, 1600])
    func unpackedAX3IsReadAtAnyRate(rate: Double) throws {
        let w = CWAWriter.with {
            $0.packing = .unpacked
            $0.rate = rate
            $0.range = 16
            $0.seconds = 2400 / rate
            $0.counts = { n in
                (x: (n * 37) % 65535 - 32767, y: 32767 - (n * 11) % 65535, z: n % 2 == 0 ? -32768 : 32767)
            }
        }
        let (samples, _) = try replayAll(try w.file())
        expectCWARows(samples, w.expectedRows(), "AX3 unpacked at \(rate) Hz")
    }

    @Test func ax6GivesItsGyroscopeInDegreesPerSecond() throws {
        let w = CWAWriter.with {
            $0.device = .ax6
            $0.gyroRange = 500
            $0.range = 4
            $0.seconds = 30
        }
        let (samples, events) = try replayAll(try w.file())
        expectCWARows(samples, w.expectedRows(), "AX6")
        #expect(events.notices.first?.contains("device AX6") == true)
        #expect(events.notices.contains("gyroscope gx, gy, gz in °/s (±500 °/s)"), "\(events.notices)")
    }

    /// A clock 0.5 % fast: laid out at the nominal rate, times would drift 6 ms within a sector;
    /// spread between the sectors' timestamps they stay within a fraction of a millisecond.
    @Test func sampleTimesAreSpreadBetweenSectorTimestampsNotLaidOutAtTheNominalRate() throws {
        let w = CWAWriter.with {
            $0.drift = 0.005
            $0.seconds = 30
        }
        let (samples, events) = try replayAll(try w.file())
        expectCWARows(samples, w.expectedRows(), "drifting clock", timeTolerance: 1e-4)
        #expect(
            events.notices.contains("replayed 3000 samples; sample rate from the timestamps ≈ 100.5 Hz"),
            "\(events.notices)")
    }

    /// Older firmware stamps the sample nearest a whole second: each stamp is off by up to half a
    /// sample, so times are good to about a sample (20 ms at 100 Hz, allowing for the ends).
    @Test func wholeSecondTimestampsOfOlderFirmwareAreReadToAboutASample() throws {
        let w = CWAWriter.with {
            $0.fractional = false
            $0.packing = .unpacked
        }
        let (samples, _) = try replayAll(try w.file())
        expectCWARows(samples, w.expectedRows(), "whole-second timestamps", timeTolerance: 0.02)
    }

    @Test func timeZoneTurnsTheDeviceClockIntoUTCWithDaylightSaving() throws {
        // 2024-07-01 and 2024-01-15, 12:00 on the device's clock, which keeps Berlin time.
        for (local, offset) in [(1_719_835_200.5, 7200.0), (1_705_320_000.5, 3600.0)] {
            let w = CWAWriter.with {
                $0.start = local
                $0.seconds = 10
            }
            let (samples, events) = try replayAll(try w.file(), "time_zone: Europe/Berlin")
            expectCWARows(samples, w.expectedRows(utcOffset: offset), "Europe/Berlin at \(local)")
            #expect(events.notices.first?.contains("(device clock in Europe/Berlin)") == true)
        }
    }

    @Test(arguments: ["rec.cwa.gz", "recording.bin.gz"])
    func gzipIsReadAndDetectedByContent(name: String) throws {
        let w = CWAWriter.with {
            $0.gzip = true
            $0.device = .ax6
        }
        let (samples, events) = try replayAll(try w.file(name))
        expectCWARows(samples, w.expectedRows(), name)
        #expect(events.notices.first?.hasPrefix("format cwa") == true)
    }

    @Test(arguments: ["recording.bin", "recording.csv", "recording"])
    func aCWANamedOtherwiseIsReadByContent(name: String) throws {
        let w = CWAWriter.with { $0.seconds = 10 }
        let (samples, events) = try replayAll(try w.file(name))
        expectCWARows(samples, w.expectedRows(), name)
        #expect(events.notices.first?.hasPrefix("format cwa") == true)
    }

    @Test(arguments: [1, 7, 119, 4096])
    func anyBatchSizeGivesTheSameSamples(batch: Int) throws {
        let w = CWAWriter.with {
            $0.seconds = 20
            $0.corrupt = [4]
            $0.drift = -0.002
        }
        let h = try replay(try w.file(), "on_bad_row: skip")
        let (samples, status) = try h.read(batchSize: batch)
        #expect(status == .finished)
        expectCWARows(samples, w.expectedRows(), "batches of \(batch)")
    }

    /// A whole run: motion.replay → logger.jsonl, and the manifest's entry for the file.
    @Test func aPipelineRunLogsEverySampleAndTheManifestNamesTheDevice() throws {
        let w = CWAWriter.with {
            $0.seconds = 12
            $0.device = .ax6
        }
        let path = try w.file()
        let base = tempDirectory()
        let yaml = """
            name: cwa
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
        #expect(input["format"] == .string("cwa"))
        #expect(input["device"] == .string("AX6") && input["serial"] == .string("71234"))
        #expect(input["timeZone"] == .string("UTC") && input["nominalRate"]?.doubleValue == 100)
        #expect(input["samples"] == .int(1200))
        #expect(input["corruptBlocks"] == .int(0))
        let log = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".jsonl") })
        let lines = try String(contentsOfFile: dir + "/" + log, encoding: .utf8).split(separator: "\n")
        let items = lines.compactMap { try? JSONParser.parse(Array($0.utf8)) }.filter {
            if case .object(let o) = $0 { return o["gx"] != nil } else { return false }
        }
        #expect(items.count == 1200)
    }
}
