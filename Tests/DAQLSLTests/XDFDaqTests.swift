import DAQCore
import DAQTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `logger.xdf` and `xdf.replay` through the real `daq` binary: a run written as XDF replays
/// with the same values and times; a killed run leaves a file pyxdf reads, which `daq repair`
/// finishes and `daq inspect` describes.
@Suite(.timeLimit(.minutes(10))) struct XDFDaqTests {
    static let daq = ServiceProcess.builtExecutable("daq")

    static func daqRun(_ arguments: [String]) throws -> ChildOutput {
        try Process.runToEnd(daq, arguments, timeout: 300)
    }

    /// The items of a `logger.jsonl` file.
    static func items(_ path: String) throws -> [Fields] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try text.split(separator: "\n").compactMap { line in
            if case .object(let f) = try JSONParser.parse(Array(line.utf8)) { return f }
            return nil
        }
    }

    @Test func aRunWrittenAsXDFReplaysWithItsValuesAndTimes() throws {
        let dir = xdfTemporaryDirectory()
        try """
        name: write
        clock: virtual
        sources:
          sine: {type: generator, rate: 100, count: 300, field: volts}
        sinks:
          xdf: {type: logger.xdf, inputs: [sine], directory: "\(dir)/first"}
          log: {type: logger.jsonl, inputs: [sine], directory: "\(dir)/first"}
        """.write(toFile: dir + "/write.yaml", atomically: true, encoding: .utf8)
        let first = try Self.daqRun(["run", dir + "/write.yaml", "--status", "never", "--no-control"])
        try #require(first.status == 0, "\(first.errors)")
        let xdf = try XDFLoggerTests.xdfFile(in: dir + "/first")
        try """
        name: read
        clock: virtual
        sources:
          sine: {type: xdf.replay, path: "\(xdf)", streams: [sine]}
        sinks:
          log: {type: logger.jsonl, inputs: [sine], directory: "\(dir)/second"}
        """.write(toFile: dir + "/read.yaml", atomically: true, encoding: .utf8)
        let second = try Self.daqRun(["run", dir + "/read.yaml", "--status", "never", "--no-control"])
        try #require(second.status == 0, "\(second.errors)")
        func data(_ base: String) throws -> [Fields] {
            let run = try #require(try FileManager.default.contentsOfDirectory(atPath: base).first)
            return try Self.items(base + "/" + run + "/sine.jsonl").filter { $0["marker"] == nil }
        }
        let written = try data(dir + "/first")
        let replayed = try data(dir + "/second")
        #expect(written.count == 300 && replayed.count == 300)
        for (a, b) in zip(written, replayed) {
            #expect(
                a["volts"]?.doubleValue == b["volts"]?.doubleValue && a["seq"]?.doubleValue == b["seq"]?.doubleValue)
            let ta = a["timestamp"]?.doubleValue ?? .nan
            let tb = b["timestamp"]?.doubleValue ?? .nan
            #expect(abs(ta - tb) < 1e-9, "\(ta) \(tb)")
        }
        let inspect = try Self.daqRun(["inspect", xdf])
        #expect(inspect.status == 0, "\(inspect.errors)")
        #expect(
            inspect.output.contains("stream 'sine'") && inspect.output.contains("nominal 100 Hz"), "\(inspect.output)")
        #expect(
            inspect.output.contains("samples: 300") && inspect.output.contains("footer: present"), "\(inspect.output)")
    }

    @Test func aKilledRunLeavesAFilePyxdfReadsAndRepairFinishesIt() throws {
        let dir = xdfTemporaryDirectory()
        try """
        name: killed
        clock: realtime
        sources:
          gen: {type: generator, rate: 500}
        sinks:
          xdf: {type: logger.xdf, inputs: [gen], directory: "\(dir)/out"}
        """.write(toFile: dir + "/killed.yaml", atomically: true, encoding: .utf8)
        let daq = try ServiceProcess.start(
            Self.daq,
            [
                "run", dir + "/killed.yaml", "--events", "jsonl", "--flush-interval", "0.05", "--status", "never",
                "--no-control",
            ])
        // Bytes are in the file once the logger has said it delivered some, twice.
        try daq.waitForError(containing: "\"event\":\"delivered\",\"component\":\"xdf\"", timeout: 60)
        daq.send(SIGKILL)
        #expect(try daq.waitForExit(timeout: 60) != 0)
        let path = try XDFLoggerTests.xdfFile(in: dir + "/out")
        let before = try XDFFixture.pyxdf(path)
        let gen = try #require(before.first { $0.name == "gen" })
        #expect(gen.stamps.count > 0 && gen.labels == ["seq", "value"])
        let inspect = try Self.daqRun(["inspect", path])
        #expect(
            inspect.output.contains("footer: missing") && inspect.output.contains("incomplete"), "\(inspect.output)")

        let repair = try Self.daqRun(["repair", path])
        #expect(repair.status == 0 && repair.output.contains("added footers for 'gen'"), "\(repair)")
        let after = try XDFFixture.pyxdf(path)
        #expect(after.first { $0.name == "gen" }?.stamps == gen.stamps)
        let footer = try Process.runToEnd(
            "python3",
            [
                "-c",
                "import sys, pyxdf; s, _ = pyxdf.load_xdf(sys.argv[1]); print([x['footer']['info']['sample_count'][0] for x in s])",
                path,
            ])
        #expect(footer.output.contains("'\(gen.stamps.count)'"), "\(footer.output) \(footer.errors)")
        let again = try Self.daqRun(["repair", path])
        #expect(again.status == 0 && again.output.contains("already complete"), "\(again)")
    }
}
