import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Damaged and wrong .gt3x files: one clear message each, with the file and the byte offset
/// or record number, and the samples before the damage kept.
@Suite(.timeLimit(.minutes(20))) struct GT3XBadInputTests {
    func failure(_ path: String, _ extra: String = "") -> (samples: [Sample], message: String) {
        do {
            let (samples, error) = replayUntilFailure(try replay(path, extra))
            return (samples, error.map { "\($0)" } ?? "no error")
        } catch {
            return ([], "\(error)")
        }
    }

    @Test func aZipWithoutLogBinOrActivityBin() throws {
        let path = try GT3XWriter.with { $0.layout = .infoOnly }.file()
        #expect(
            failure(path).message
                == "\(path): a zip without log.bin or activity.bin (it holds info.txt) is not an ActiGraph .gt3x")
    }

    @Test func aGt3xThatIsNoZip() {
        let path = recording("text.gt3x", "t,x,y,z\n0,1,1,1\n")
        #expect(failure(path).message == "\(path): is not a zip archive")
    }

    /// A copy cut off part-way: the zip's directory is gone, the members are found from their
    /// headers, and the samples up to the cut come through before the error that says where.
    @Test func aTruncatedFileKeepsWhatCameBeforeTheCut() throws {
        let w = GT3XWriter.with {
            $0.seconds = 600
            $0.rate = 100
            $0.method = .stored
        }
        let path = try w.file()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size / 2)) == 0)
        let (samples, message) = failure(path)
        #expect(samples.count > 20_000 && samples.count < 40_000, "\(samples.count)")
        expectRows(samples, Array(w.expectedRows().prefix(samples.count)), "before the cut")
        #expect(
            message.hasPrefix("\(path): the file is cut short: it ends at byte \(size / 2) inside log.bin, after "),
            "\(message)")
        #expect(message.hasSuffix(" of log.bin)"), "\(message)")
    }

    @Test func aTruncatedDeflatedFileToo() throws {
        let w = GT3XWriter.with {
            $0.seconds = 600
            $0.rate = 100
        }
        let path = try w.file()
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(truncate(path, off_t(size * 3 / 4)) == 0)
        let (samples, message) = failure(path)
        #expect(samples.count > 10_000, "\(samples.count)")
        expectRows(samples, Array(w.expectedRows().prefix(samples.count)), "before the cut")
        #expect(
            message.hasPrefix("\(path): the file is cut short: it ends at byte \(size * 3 / 4) inside log.bin"),
            "\(message)")
    }

    /// Deflate level 0 writes stored blocks, each headed by its length and the length's
    /// complement: breaking the second block's complement is bad deflate data at a known byte.
    @Test func badDeflateDataIsReportedWithItsOffset() throws {
        let w = GT3XWriter.with {
            $0.seconds = 300
            $0.rate = 100
            $0.method = .deflated(level: 0)
        }
        let path = try w.file()
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        // log.bin's data: after info.txt's local header and data, and its own header.
        let logHeader = try #require(find(bytes, Array("log.bin".utf8))) - 30
        let dataStart = logHeader + 30 + 7
        let firstLength = Int(bytes[dataStart + 1]) | Int(bytes[dataStart + 2]) << 8
        let second = dataStart + 5 + firstLength
        bytes[second + 3] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let (samples, message) = failure(path)
        #expect(samples.count > 0 && samples.count < firstLength / 6, "\(samples.count)")
        expectRows(samples, Array(w.expectedRows().prefix(samples.count)), "before the bad block")
        #expect(
            message.hasPrefix(
                "\(path): bad deflate data in log.bin at byte \(second + 5) (after \(firstLength) bytes of content): invalid stored block lengths"
            ),
            "\(message)")
    }

    /// Garbage between records (holding a 0x1E that is no record) and a log.bin that ends inside
    /// a record: each is one corrupt block with its record number and byte, and the records
    /// after the garbage are read.
    @Test func garbageBetweenRecordsAndACutRecordAreSkippedAndReported() throws {
        let t0: UInt32 = 1_700_000_000
        let second = { (s: Int) in (0..<30).flatMap { i -> [UInt8] in [UInt8(i), 0, UInt8(s), 0, 0, 1] } }
        var log = GT3XWriter.record(0x1A, t0, second(0))
        log += [0x55, 0x66, 0x1E, 0x77]
        log += GT3XWriter.record(0x1A, t0 + 1, second(1))
        log += Array(GT3XWriter.record(0x1A, t0 + 2, second(2)).prefix(100))
        let path = tempDirectory() + "/garbage.gt3x"
        let z = try ZipWriter(path: path)
        try z.begin("info.txt")
        try z.write(Array("Serial Number: MOS2E00000001\r\nSample Rate: 30\r\nTimeZone: 00:00:00\r\n".utf8))
        try z.begin("log.bin")
        try z.write(log)
        try z.close()
        let (samples, events) = try replayAll(path, "on_bad_row: skip")
        let times: [Double] = (0..<60).map { (n: Int) -> Double in Double(t0) + Double(n / 30) + Double(n % 30) / 30 }
        let xs: [Double] = (0..<60).map { (n: Int) -> Double in Double(n % 30) / 256 }
        let ys: [Double] = (0..<60).map { (n: Int) -> Double in Double(n / 30) / 256 }
        #expect(samples.map(\.timestamp) == times)
        #expect(samples.map { $0.number("x") } == xs)
        #expect(samples.map { $0.number("y") } == ys)
        #expect(
            events.warnings.prefix(2) == [
                "skipped \(path):2: log.bin record 2 at byte 189 no record separator here; skipped 4 bytes to the next valid record; skipped",
                "skipped \(path):4: log.bin record 4 at byte 382 log.bin ends inside a record of 180 payload bytes; skipped",
            ], "\(events.warnings)")
        #expect(events.warnings.contains("skipped 2 corrupt block(s) in all"))
    }

    func find(_ haystack: [UInt8], _ needle: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for i in 0...(haystack.count - needle.count)
        where haystack[i] == needle[0] && Array(haystack[i..<(i + needle.count)]) == needle {
            return i
        }
        return nil
    }
}
