import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Damaged and wrong .cwa files: each bad sector reported with its number and byte offset,
/// counted and skipped, the gap it leaves reported, and the rest read; files that are no .cwa
/// get one clear message naming the file and the byte.
@Suite(.timeLimit(.minutes(20))) struct CWABadInputTests {
    func failure(_ path: String, _ extra: String = "") -> (samples: [Sample], message: String) {
        do {
            let (samples, error) = replayUntilFailure(try replay(path, extra))
            return (samples, error.map { "\($0)" } ?? "no error")
        } catch {
            return ([], "\(error)")
        }
    }

    /// By default, as GGIRread, actipy and omconvert read a `.cwa`: around its damage.
    @Test func aCorruptSectorIsReportedSkippedCountedAndLeavesAGap() throws {
        let w = CWAWriter.with {
            $0.seconds = 12
            $0.corrupt = [3, 7]
        }
        let path = try w.file()
        let (samples, events) = try replayAll(path)
        expectCWARows(samples, w.expectedRows(), "corrupt sectors skipped")
        // Data sector 4 (1-based) starts after the header and three sectors.
        #expect(
            events.warnings.first
                == "skipped \(path):4: sector 4 at byte \(1024 + 3 * 512) fails its checksum",
            "\(events.warnings)")
        #expect(
            events.warnings.contains(
                "skipped \(path):8: sector 8 at byte \(1024 + 7 * 512) fails its checksum"))
        #expect(events.warnings.contains("skipped 2 corrupt block(s) in all"), "\(events.warnings)")
        // Each leaves the 120 samples it held, 1.2 s, to within the timestamps' 1/32768 s.
        let gaps = try #require(
            events.notices.first { $0.hasPrefix("2 gap(s) without samples, ") }, "\(events.notices)")
        let total = try #require(Double(gaps.dropFirst(26).prefix { $0 != " " }))
        #expect(abs(total - 2.4) < 1e-3, "\(gaps)")
    }

    @Test func aRecordingReadAroundItsDamageIsRecordedIncomplete() throws {
        let w = CWAWriter.with {
            $0.seconds = 6
            $0.corrupt = [2]
        }
        let h = try replay(try w.file())
        _ = try h.read()
        let summary = try #require((h.source as? MotionReplaySource)?.recordingSummary)
        #expect(summary["complete"] == .bool(false) && summary["badRows"] == .int(1), "\(summary)")
        guard case .array(let gaps)? = summary["gaps"] else {
            Issue.record("no gaps: \(summary)")
            return
        }
        #expect(gaps.count == 1, "\(gaps)")
    }

    @Test func aCorruptSectorFailsTheRunWithOnBadRowFailAfterTheSamplesBeforeIt() throws {
        let w = CWAWriter.with { $0.corrupt = [2] }
        let path = try w.file()
        let (samples, message) = failure(path, "on_bad_row: fail")
        expectCWARows(samples, Array(w.expectedRows().prefix(240)), "before the damage")
        #expect(message == "\(path):3: sector 3 at byte 2048 fails its checksum", "\(message)")
    }

    @Test func aCorruptFirstSectorStillLeavesTheRestReadable() throws {
        let w = CWAWriter.with {
            $0.seconds = 6
            $0.corrupt = [0]
            $0.device = .ax6
        }
        let (samples, events) = try replayAll(try w.file(), "on_bad_row: skip")
        expectCWARows(samples, w.expectedRows(), "first sector corrupt")
        #expect(events.warnings.contains("skipped 1 corrupt block(s) in all"))
    }

    @Test func aTruncatedLastSectorIsReportedAfterEverySampleBeforeIt() throws {
        let w = CWAWriter.with { $0.seconds = 12 }
        let path = try w.file()
        #expect(truncate(path, off_t(1024 + 9 * 512 + 200)) == 0)
        let (samples, events) = try replayAll(path, "on_bad_row: skip")
        expectCWARows(samples, Array(w.expectedRows().prefix(9 * 120)), "before the cut")
        #expect(
            events.warnings.first
                == "skipped \(path):10: sector 10 at byte \(1024 + 9 * 512) is cut short: the file ends 200 bytes into it",
            "\(events.warnings)")
        let (_, message) = failure(path, "on_bad_row: fail")
        #expect(
            message == "\(path):10: sector 10 at byte \(1024 + 9 * 512) is cut short: the file ends 200 bytes into it")
        // By default, read as far as it goes, as the damaged sectors are.
        #expect(try replayAll(path).samples.count == 9 * 120)
    }

    @Test func aGzipCutShortKeepsWhatCameBefore() throws {
        let w = CWAWriter.with {
            $0.seconds = 600
            $0.gzip = true
        }
        let path = try w.file("rec.cwa.gz")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        let (samples, message) = failure(path)
        #expect(samples.count > 10_000, "\(samples.count)")
        expectCWARows(samples, Array(w.expectedRows().prefix(samples.count)), "before the cut")
        #expect(message.hasPrefix("\(path): the gzip data ends early"), "\(message)")
    }

    @Test func aSectorThatIsNoDataSectorIsSkipped() throws {
        let w = CWAWriter.with { $0.seconds = 6 }
        let path = try w.file()
        let handle = try #require(FileHandle(forUpdatingAtPath: path))
        try handle.seek(toOffset: UInt64(1024 + 2 * 512))
        try handle.write(contentsOf: Data("XY".utf8))
        try handle.close()
        let (samples, events) = try replayAll(path, "on_bad_row: skip")
        #expect(samples.count == 4 * 120)
        #expect(
            events.warnings.first
                == "skipped \(path):3: sector 3 at byte 2048 does not start with 'AX' (not a data sector)",
            "\(events.warnings)")
    }

    @Test func aFileCutInsideItsHeader() throws {
        let path = try CWAWriter.with { $0.seconds = 1 }.file()
        #expect(truncate(path, 700) == 0)
        #expect(
            failure(path).message == "\(path): the file ends at byte 700, inside its 1024-byte header (it is cut short)"
        )
    }

    @Test func aFileNamedCwaThatIsNotOne() {
        let path = recording("text.cwa", "t,x,y,z\n0,1,1,1\n")
        #expect(
            failure(path).message
                == "\(path): not an Axivity .cwa file: byte 0 does not start an 'MD' header of 1024 bytes (it starts with 't,x,y,z')"
        )
    }

    @Test func formatCwaForcedOnACSV() {
        let path = recording("walk.csv", "time,x,y,z\n0,1,1,1\n")
        #expect(
            failure(path, "format: cwa").message
                == "\(path): not an Axivity .cwa file: byte 0 does not start an 'MD' header of 1024 bytes (it starts with 'time,x,y,z')"
        )
    }

    @Test func formatCwaForcedOnAGT3XSaysWhatItLooksLike() throws {
        let path = try GT3XWriter().file()
        let message = failure(path, "format: cwa").message
        #expect(
            message
                == "\(path): not an Axivity .cwa file: byte 0 does not start an 'MD' header of 1024 bytes (it looks like a zip archive (an ActiGraph .gt3x?))",
            "\(message)")
    }
}
