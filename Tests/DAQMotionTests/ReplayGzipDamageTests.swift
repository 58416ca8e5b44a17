import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// The shipped walk and its rows, as the tests compare against them.
enum Walk {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recordings/walk.csv").path

    /// `t, x, y, z` of every row.
    static let rows: [[Double]] = {
        let text = try! String(contentsOfFile: path, encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: ",").map { Double($0)! } }
    }()

    /// The walk gzipped by gzip(1) and cut to `fraction` of its compressed size.
    static func cut(_ fraction: Double) throws -> (path: String, size: Int) {
        let gz = try gzip(path, to: tempDirectory() + "/walk.csv.gz")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: gz)[.size] as? Int)
        let at = Int(Double(size) * fraction)
        #expect(truncate(gz, off_t(at)) == 0)
        return (gz, at)
    }
}

/// A truncated or damaged `.gz` recording is an error naming the file, the compressed offset
/// and the last complete line, and the cut row after it is never replayed; under
/// `on_bad_row: skip` the rows before it are kept, the damage is a warning, and the run says so.
@Suite(.timeLimit(.minutes(20))) struct ReplayGzipDamageTests {
    @Test func aCutWalkFailsAfterItsLastCompleteRowAndNeverEmitsTheCutOne() throws {
        let (path, at) = try Walk.cut(0.5)
        let (samples, thrown) = replayUntilFailure(try replay(path))
        let error = try #require(thrown as? CompressedInputError, "\(String(describing: thrown))")
        #expect(samples.count > 1000 && samples.count < 6000)
        // Line 1 is the header: the last complete line is that of the last sample replayed.
        #expect(error.lastCompleteLine == samples.count + 1)
        #expect(
            "\(error)"
                == "\(path): the gzip data ends early at compressed byte \(at), inside the compressed data of the "
                + "first gzip member (the file is cut short); line \(samples.count + 1) is the last complete line, nothing after it is read"
        )
        for (sample, row) in zip(samples, Walk.rows) {
            #expect([sample.number("x"), sample.number("y"), sample.number("z")] == Array(row[1...3]))
        }
    }

    @Test func underSkipTheRowsBeforeAreKeptAndTheDamageIsAWarning() throws {
        let (path, at) = try Walk.cut(0.5)
        let (samples, events) = try replayAll(path, "on_bad_row: skip")
        #expect(samples.count > 1000 && samples.count < 6000)
        #expect(
            samples.last.map { [$0.number("x"), $0.number("y"), $0.number("z")] }
                == Array(Walk.rows[samples.count - 1][1...3]))
        let warning = try #require(events.warnings.first)
        #expect(warning.hasPrefix("\(path): the gzip data ends early at compressed byte \(at), "), "\(warning)")
        #expect(
            warning.hasSuffix(
                "line \(samples.count + 1) is the last complete line, nothing after it is read; the replay ends there"))
    }

    @Test func aGzipCutToFiveBytesIsNotAnEmptyFile() throws {
        let (path, at) = try Walk.cut(0.5)
        #expect(at > 5 && truncate(path, 5) == 0)
        #expect {
            _ = try replay(path)
        } throws: { error in
            "\(error)"
                == "\(path): the gzip data ends early at compressed byte 5, inside the header of the first gzip member, in its fixed 10 bytes (the file is cut short); no line before it is complete"
        }
    }

    /// gzip data damaged so that it still decompresses is found by the trailer's CRC-32, after
    /// the content (the "incorrect data check" case), by its offset.
    @Test func aWrongCRCNamesItsOffsetAfterEveryRow() throws {
        let gz = try gzip(Walk.path, to: tempDirectory() + "/walk.csv.gz")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gz)))
        bytes[bytes.count - 6] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: gz))
        let (samples, thrown) = replayUntilFailure(try replay(gz))
        let error = try #require(thrown as? CompressedInputError, "\(String(describing: thrown))")
        #expect(samples.count == 6000)
        #expect(
            "\(error)".hasPrefix(
                "\(gz): corrupt gzip data at compressed byte \(bytes.count - 8): the content's CRC-32 is "), "\(error)")
    }

    /// Damage in the middle is an error, never a replay that finishes: zlib finds bad codes
    /// (with their offset); garbage it cannot tell from data is a bad row, or fails the CRC.
    @Test(arguments: [3, 2, 5, 7])
    func aFlippedByteInTheMiddleStopsTheReplay(eighths: Int) throws {
        let gz = try gzip(Walk.path, to: tempDirectory() + "/walk.csv.gz")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: gz)))
        bytes[bytes.count * eighths / 8] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: gz))
        let (samples, thrown) = replayUntilFailure(try replay(gz))
        let error = try #require(thrown)
        #expect(samples.count <= 6000)
        if let damage = error as? CompressedInputError {
            #expect(
                "\(damage)".hasPrefix("\(gz): corrupt gzip data at compressed byte \(damage.gzip.offset): "),
                "\(damage)")
        } else {
            #expect("\(error)".hasPrefix("\(gz):"), "\(error)")
        }
    }

    @Test func aRunPastDamageUnderSkipFinishesWithTheDamageInItsRecord() throws {
        let (path, _) = try Walk.cut(0.5)
        let base = tempDirectory()
        let yaml = """
            name: cut
            clock: virtual
            sources: {accel: {type: motion.replay, path: "\(path)", on_bad_row: skip}}
            sinks: {log: {type: logger.jsonl, inputs: [accel], directory: "\(base)"}}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all + SampleLoggerPlugins.all)
        #expect(outcome.result.state == .finished)
        let source = try #require(outcome.result.stages.first { $0.name == "accel" })
        #expect(source.errors == 1)
        let dir = base + "/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: base).first))
        let manifest = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))))
        guard case .object(let m) = manifest, case .array(let inputs)? = m["inputs"],
            case .object(let input)? = inputs.first
        else {
            Issue.record("no inputs in the manifest: \(manifest)")
            return
        }
        #expect(input["complete"] == .bool(false))
        // The run's status says it did not finish cleanly.
        #expect(
            m["status"] == .string("finished") && m["errors"] == .int(1),
            "\(m["status"] ?? .null) \(m["errors"] ?? .null)")
        #expect(input["damage"]?.stringValue?.contains("the gzip data ends early") == true, "\(input)")
        guard case .array(let notes)? = m["notes"] else {
            Issue.record("no notes")
            return
        }
        #expect(
            notes.contains { $0.stringValue?.contains("warning: \(path): the gzip data ends early") == true },
            "\(notes)")
    }
}
