import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// A deterministic, varied raw sample: every axis sweeps the 12-bit range, light the 10-bit one.
func variedSample(_ n: Int) -> GENEActivWriter.RawSample {
    GENEActivWriter.RawSample(
        x: (n * 37) % 4096 - 2048, y: (n * 91 + 500) % 4096 - 2048, z: 2047 - (n * 13) % 4096, light: (n * 7) % 1024,
        button: n % 5 == 0)
}

/// The value a raw count calibrates to, as the GENEActiv instructions say.
func calibrated(_ raw: Int, gain: Int, offset: Int) -> Double { (Double(raw) * 100 - Double(offset)) / Double(gain) }

/// GENEActiv `.bin`: files from the DAQTesting writer, and a page built by hand from the layout.
@Suite(.timeLimit(.minutes(20))) struct GENEActivBinTests {
    func write(_ writer: GENEActivWriter = GENEActivWriter(), pages: Int, name: String = "r.bin") throws -> String {
        let path = tempDirectory() + "/" + name
        try writer.write(to: path, pages: pages, sample: variedSample)
        return path
    }

    @Test func replaysWithOnlyPathSet() throws {
        let w = GENEActivWriter()
        let path = try write(w, pages: 3)
        let (samples, events) = try replayAll(path)
        #expect(samples.count == 900)
        let c = w.calibration
        for (n, s) in samples.enumerated() {
            let raw = variedSample(n)
            #expect(close(s.number("x"), calibrated(raw.x, gain: c.xGain, offset: c.xOffset), 1e-12))
            #expect(close(s.number("y"), calibrated(raw.y, gain: c.yGain, offset: c.yOffset), 1e-12))
            #expect(close(s.number("z"), calibrated(raw.z, gain: c.zGain, offset: c.zOffset), 1e-12))
            #expect(close(s.number("light"), Double(raw.light) * 800 / 300, 1e-9))
            #expect(s.number("button") == (raw.button ? 1 : 0))
            #expect(close(s.number("temperature"), w.temperature(n / 300)))
            // GMT +01:00 on the device: UTC is an hour earlier than the page time.
            #expect(close(s.timestamp, w.start - 3600 + Double(n) / 100, 1e-6), "sample \(n)")
        }
        let notices = events.notices
        #expect(
            notices.first
                == "format geneactiv, device GENEActiv 1.2 #012345, configured at 100 Hz, starting 2024-01-11T15:35:31.000+01:00 (device clock in +01:00), axes in g, firmware Ver06.17 15June23, pages 3"
        )
        #expect(events.warnings.isEmpty)
    }

    @Test(arguments: [1, 7, 4096])
    func batchSizesGiveTheSameRows(batch: Int) throws {
        let path = try write(pages: 4)
        let (reference, _) = try replayAll(path)
        let (samples, status) = try replay(path).read(batchSize: batch)
        #expect(status == .finished)
        #expect(samples.map { $0.number("x") } == reference.map { $0.number("x") })
        #expect(samples.map(\.timestamp) == reference.map(\.timestamp))
    }

    @Test func gzipAndAnyNameAreReadByContent() throws {
        let path = try write(pages: 2, name: "recording.dat")
        let (plain, _) = try replayAll(path)
        let (zipped, _) = try replayAll(try gzip(path, to: path + ".gz"))
        #expect(plain.count == 600)
        #expect(zipped.map { $0.number("z") } == plain.map { $0.number("z") })
    }

    @Test func timeZoneOverridesTheHeaderAcrossDaylightSaving() throws {
        var w = GENEActivWriter()
        // 2024-03-31 00:30:00 on the device's clock, then a page at 02:30, after London's change to BST.
        w.start = Double(LocalDays.from(2024, 3, 31) * 86_400 + 1800)
        w.gapBefore = [1: 7200 - 3]
        let path = try write(w, pages: 2)
        let (samples, events) = try replayAll(path, "time_zone: Europe/London")
        let midnight = Double(LocalDays.from(2024, 3, 31) * 86_400)
        #expect(samples[0].timestamp == midnight + 1800)  // GMT: UTC+0
        #expect(samples[300].timestamp == midnight + 5400)  // BST: 02:30 is 01:30 UTC
        #expect(events.notices.contains("page times read in Europe/London (time_zone), not the header's 'GMT +01:00'"))
        // The hour left out by the clock change is an hour of samples, not of time: a gap of 3597 s.
        #expect(events.notices.contains("1 gap(s) without samples, 3597 s in all"))
    }

    @Test func aPageWithBadHexIsReportedSkippedAndCounted() throws {
        var w = GENEActivWriter()
        w.damage = [1: .badHex(at: 5)]
        let path = try write(w, pages: 3)
        let (samples, events) = try replayAll(path, "on_bad_row: skip")
        #expect(samples.count == 600)
        #expect(
            samples[300].number("x")
                == calibrated(variedSample(600).x, gain: w.calibration.xGain, offset: w.calibration.xOffset))
        // Page 2's data line: 59 header lines, 10 lines per page.
        #expect(events.warnings.first == "skipped \(path):79: page 2: a character that is not hex at column 6")
        #expect(events.warnings.contains("skipped 1 corrupt block(s) in all"))
        #expect(events.notices.contains("1 gap(s) without samples, 3 s in all"))
    }

    @Test func aBadPageFailsTheReplayByDefaultAfterThePagesBeforeIt() throws {
        var w = GENEActivWriter()
        w.damage = [1: .shortData]
        let path = try write(w, pages: 3)
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 300)
        #expect(
            "\(try #require(error))" == "\(path):79: page 2: expected 3600 hex characters (300 samples), found 3588")
    }

    @Test func aMissingDataLineIsOnePageNotTwo() throws {
        var w = GENEActivWriter()
        w.damage = [0: .missingDataLine]
        let path = try write(w, pages: 2)
        let (samples, events) = try replayAll(path, "on_bad_row: skip")
        #expect(samples.count == 300)
        #expect(
            events.warnings.first == "skipped \(path):60: page 1: it has no data line (the next page starts on line 69)"
        )
    }

    @Test func aFileCutInsideAPageKeepsThePagesBeforeIt() throws {
        let path = try write(pages: 3)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size - 1000)) == 0)
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 600)
        #expect(
            "\(try #require(error))"
                == "\(path):89: page 3: expected 3600 hex characters (300 samples), found 2601 (the file is cut short)")
    }

    @Test func aFileCutBetweenPagesIsToldByThePageCount() throws {
        var w = GENEActivWriter()
        w.statedPages = 5
        let path = try write(w, pages: 3)
        let (samples, error) = replayUntilFailure(try replay(path))
        #expect(samples.count == 900)
        #expect(
            "\(try #require(error))"
                == "\(path):89: the header states 5 pages, but the file ends after page 3 (it is cut short)")
    }

    @Test func anotherFormatReadAsGENEActivSaysWhatItLooksLike() throws {
        let csv = recording("r.bin", "t,x,y,z\n0,1,1,1\n")
        #expect(
            failure(csv, "format: geneactiv")
                == "\(csv):1: not a GENEActiv .bin file: it should start with 'Device Identity', but it starts with 't,x,y,z'"
        )
        let cwa = tempDirectory() + "/r.bin"
        FileManager.default.createFile(atPath: cwa, contents: Data([0x4D, 0x44, 0xFC, 0x03, 0x00, 0x0A, 0x00, 0x01]))
        #expect(
            failure(cwa, "format: geneactiv")
                == "\(cwa):1: not a GENEActiv .bin file: it should start with 'Device Identity', but it looks like an Axivity .cwa file (it starts with 'MD')"
        )
    }

    func failure(_ path: String, _ extra: String) -> String {
        do {
            return replayUntilFailure(try replay(path, extra)).error.map { "\($0)" } ?? "no error"
        } catch {
            return "\(error)"
        }
    }
}

/// Day numbers for expected values, independent of the reader's own date code.
enum LocalDays {
    static func from(_ y: Int, _ m: Int, _ d: Int) -> Int {
        var c = DateComponents()
        (c.year, c.month, c.day) = (y, m, d)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return Int(calendar.date(from: c)!.timeIntervalSince1970) / 86_400
    }
}
