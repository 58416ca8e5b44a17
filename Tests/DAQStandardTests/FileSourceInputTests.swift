import DAQCore
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// The `file` source reads NaN and infinity as numbers and applies `nan:` to them, and a
/// gzip file cut short or damaged ends it with an error after every whole line before.
@Suite(.timeLimit(.minutes(20))) struct FileSourceInputTests {
    func file(_ name: String, _ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-file-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/" + name
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    func source(_ path: String, _ extra: String = "") throws -> SourceHarness {
        try SourceHarness(FileSource.self, config: "path: \"\(path)\"\n" + extra, name: "in")
    }

    /// Reads until the source finishes or throws.
    func readAll(_ h: SourceHarness, batchSize: Int = 1024) -> (samples: [Sample], error: (any Error)?) {
        var out: [Sample] = []
        while true {
            var b = Batch(stream: "in")
            do {
                let status = try h.source.read(into: &b, limit: batchSize, context: h.context)
                out += b.samples
                if status == .finished { return (out, nil) }
            } catch {
                out += b.samples
                return (out, error)
            }
        }
    }

    @Test(arguments: [
        ("NaN", Double.nan), ("nan", .nan), ("-nan", .nan), ("inf", .infinity), ("-inf", -.infinity),
        ("Infinity", .infinity),
        ("-Infinity", -.infinity),
    ])
    func nonFiniteCellsAreNumbersThatFailByDefault(cell: String, value: Double) throws {
        let path = try file("a.csv", "t,x\n0,1\n0.01,\(cell)\n0.02,3\n")
        let (samples, error) = readAll(try source(path))
        #expect(samples.count == 1)
        #expect(
            "\(try #require(error))"
                == "\(path):3: 'x' is \(NonFinite.name(value)), not a finite number (nan: skip drops such lines, nan: keep passes them on)"
        )

        let (kept, _) = readAll(try source(path, "nan: keep"))
        let x = try #require(kept[1]["x"]?.doubleValue)
        #expect(x.isNaN == value.isNaN && (value.isNaN || x == value))
    }

    @Test func skipDropsAndCountsTheLine() throws {
        let path = try file("a.csv", "t,x\n0,1\n0.01,NaN\n0.02,3\n")
        let h = try source(path, "nan: skip")
        let (samples, error) = readAll(h)
        #expect(error == nil)
        #expect(samples.map { $0["x"] } == [.int(1), .int(3)])
        let warnings = h.events.compactMap { if case .warning(_, let m) = $0 { m } else { nil } }
        #expect(warnings == ["dropped \(path):3: 'x' is NaN (nan: skip)"])
    }

    /// A quoted cell after `, ` is one cell, as `motion.replay` reads it (DAQCore's CSVCells):
    /// the source used to split it at the comma inside the quotes.
    @Test func aQuotedCellAfterASpaceIsOneCell() throws {
        let path = try file("a.csv", "t,x,note\n0,1, \"left, then right\"\n")
        let (samples, error) = readAll(try source(path))
        #expect(error == nil)
        #expect(samples.first?["x"] == .int(1))
        #expect(samples.first?["note"] == .string("left, then right"))
    }

    @Test(arguments: ["Nan", "info", "n/a"])
    func otherWordsStayText(cell: String) throws {
        let path = try file("a.csv", "t,x\n0,\(cell)\n")
        let (samples, error) = readAll(try source(path))
        #expect(error == nil)
        #expect(samples.first?["x"] == .string(cell))
    }

    @Test func jsonLinesWithPythonsNaNAndInfinity() throws {
        let path = try file("a.jsonl", "{\"x\": 1}\n{\"x\": NaN}\n{\"x\": -Infinity}\n")
        let (samples, error) = readAll(try source(path))
        #expect(samples.count == 1)
        #expect("\(try #require(error))".hasPrefix("\(path):2: 'x' is NaN, not a finite number"))
        let (kept, _) = readAll(try source(path, "nan: keep"))
        #expect(kept.count == 3 && kept[2]["x"] == .double(-.infinity))
    }

    @Test func aBadLineAfterSamplesOfTheSameReadFailsOnlyOnceTheyAreOut() throws {
        let path = try file("a.csv", "t,x\n" + (0..<100).map { "\($0),\($0)\n" }.joined() + "100,NaN\n")
        let (samples, error) = readAll(try source(path), batchSize: 4096)
        #expect(samples.count == 100)
        #expect("\(try #require(error))".hasPrefix("\(path):102: 'x' is NaN"))
    }

    /// The file gzipped by gzip(1) and cut to half its size.
    func cutGzip(lines: Int) throws -> (path: String, at: Int) {
        let plain = try file("a.csv", "t,x\n" + (0..<lines).map { "\($0),\(($0 * 7919) % 10007)\n" }.joined())
        let gz = plain + ".gz"
        let r = try Process.runToEnd("/bin/sh", ["-c", "gzip -c \"$0\" > \"$1\"", plain, gz], timeout: 60)
        try #require(r.status == 0, "gzip(1) is needed: \(r.errors)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: gz)[.size] as? Int)
        #expect(truncate(gz, off_t(size / 2)) == 0)
        return (gz, size / 2)
    }

    @Test func aCutGzipFailsAfterItsLastCompleteLine() throws {
        let (path, at) = try cutGzip(lines: 50_000)
        let (samples, error) = readAll(try source(path))
        #expect(samples.count > 1000 && samples.count < 50_000)
        #expect(samples.enumerated().allSatisfy { i, s in s["x"] == .int(Int64((i * 7919) % 10007)) })
        #expect(
            "\(try #require(error))"
                == "\(path): the gzip data ends early at compressed byte \(at), inside the compressed data of the first gzip member "
                + "(the file is cut short); line \(samples.count + 1) is the last complete line, nothing after it is read"
        )
    }

    @Test func underSkipACutGzipEndsTheFileWithAWarning() throws {
        let (path, at) = try cutGzip(lines: 50_000)
        let h = try source(path, "on_bad_row: skip")
        let (samples, error) = readAll(h)
        #expect(error == nil)
        #expect(samples.count > 1000 && samples.count < 50_000)
        let warnings = h.events.compactMap { if case .warning(_, let m) = $0 { m } else { nil } }
        #expect(warnings.count == 1)
        #expect(
            warnings.first?.hasPrefix("skipped \(path): the gzip data ends early at compressed byte \(at)") == true,
            "\(warnings)")
    }
}
