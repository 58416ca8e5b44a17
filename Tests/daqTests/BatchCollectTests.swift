import Foundation
import Testing

/// `daq batch --collect`: one table for the whole batch, with the real binary.
@Suite("daq batch --collect", .timeLimit(.minutes(20)))
struct BatchCollectTests {
    static let pipeline = DAQBinary.repository.appendingPathComponent("pipelines/batch-features.yaml").path

    /// The table is every recording's features.csv, read by Python's csv module, with the
    /// recording's name in front, in the order of the names a, b, c (by path, x/c comes first).
    @Test func collectMergesEveryRecordingsTableInNameOrder() throws {
        let dir = try BatchSupport.scratch("collect")
        try BatchSupport.writeRecordings(["c"], in: dir.appendingPathComponent("x"))
        try BatchSupport.writeRecordings(["b", "a"], in: dir.appendingPathComponent("y"))
        let out = dir.appendingPathComponent("out")
        let r = try BatchSupport.batch([
            Self.pipeline, "--input", dir.path + "/*/*.cwa", "--output", out.path, "--collect", "features.csv",
        ])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("collected"), "\(r.err)")

        let merged = try BatchSupport.pythonCSV(out.appendingPathComponent("features.csv"))
        var expected: [[String]] = []
        for name in ["a", "b", "c"] {
            let rows = try BatchSupport.pythonCSV(try BatchSupport.runFile("features.csv", of: name, under: out))
            try #require(rows.count > 2, "\(name) has rows")
            if expected.isEmpty { expected.append(["recording"] + rows[0]) }
            #expect(["recording"] + rows[0] == expected[0], "one header for all")
            expected += rows.dropFirst().map { [name] + $0 }
        }
        #expect(merged == expected)
    }

    /// Headers that disagree are an error naming the file and the column; no table is written.
    @Test func collectRefusesHeadersThatDiffer() throws {
        let dir = try BatchSupport.scratch("collect-headers")
        let recordings = dir.appendingPathComponent("rec")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        try "{\"t\": 1, \"v\": 2}\n".write(
            to: recordings.appendingPathComponent("a.jsonl"), atomically: true, encoding: .utf8)
        try "{\"t\": 1, \"w\": 2}\n".write(
            to: recordings.appendingPathComponent("b.jsonl"), atomically: true, encoding: .utf8)
        let pipeline = dir.appendingPathComponent("copy.yaml")
        try """
        name: copy
        clock: virtual
        sources:
          rec: {type: file, path: placeholder.jsonl}
        sinks:
          log: {type: logger.csv, inputs: [rec], directory: out}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try BatchSupport.batch([
            pipeline.path, "--input", recordings.path + "/*.jsonl", "--output", out.path, "--collect", "rec.csv",
        ])
        #expect(r.status == 1, "\(r.err)")
        let bFile = try BatchSupport.runFile("rec.csv", of: "b", under: out).path
        #expect(r.err.contains("\(bFile):1: the header differs from "), "\(r.err)")
        #expect(r.err.contains("is 'w', expected 'v'"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("rec.csv").path))
    }

    /// A sharded batch: each shard alone, then `--collect-only`, gives the table one run gives;
    /// before the last shard has run, `--collect-only` names what is missing and writes nothing.
    @Test func collectOnlyAfterEveryShardEqualsOneBatch() throws {
        let dir = try BatchSupport.scratch("collect-shards")
        let names = ["r1", "r2", "r3", "r4", "r5"]
        let recordings = dir.appendingPathComponent("rec")
        try BatchSupport.writeRecordings(names, in: recordings)
        let input = recordings.path + "/*.cwa"
        let sharded = dir.appendingPathComponent("sharded")
        let whole = dir.appendingPathComponent("whole")

        let one = try BatchSupport.batch([
            Self.pipeline, "--input", input, "--output", whole.path, "--collect", "features.csv",
        ])
        #expect(one.status == 0, "\(one.err)")

        let first = try BatchSupport.batch([
            Self.pipeline, "--input", input, "--output", sharded.path, "--shard", "1/2",
        ])
        #expect(first.status == 0, "\(first.err)")
        let collectOnly = [
            Self.pipeline, "--input", input, "--output", sharded.path, "--collect", "features.csv", "--collect-only",
        ]
        let early = try BatchSupport.batch(collectOnly)
        #expect(early.status == 1, "\(early.err)")
        let ran = Set(try FileManager.default.contentsOfDirectory(atPath: sharded.path))
        let missing = names.filter { !ran.contains($0) }
        try #require(!missing.isEmpty && missing.count < names.count, "shard 1/2 ran some, not all: \(ran)")
        #expect(early.err.contains("\(missing.count) of 5 recordings have no finished output"), "\(early.err)")
        for name in missing { #expect(early.err.contains("\(name).cwa: not run yet"), "\(early.err)") }
        #expect(!FileManager.default.fileExists(atPath: sharded.appendingPathComponent("features.csv").path))

        let second = try BatchSupport.batch([
            Self.pipeline, "--input", input, "--output", sharded.path, "--shard", "2/2",
        ])
        #expect(second.status == 0, "\(second.err)")
        let late = try BatchSupport.batch(collectOnly)
        #expect(late.status == 0, "\(late.err)")

        // The same rows; the run clock's uptime and the markers' wall-clock dates differ by run.
        let volatile: Set = ["uptime", "timestampDate"]
        let a = BatchSupport.without(
            volatile, try BatchSupport.pythonCSV(sharded.appendingPathComponent("features.csv")))
        let b = BatchSupport.without(volatile, try BatchSupport.pythonCSV(whole.appendingPathComponent("features.csv")))
        #expect(a.count > names.count)
        #expect(a == b)
    }

    /// A recording whose first run failed after writing rows, and whose second run finished:
    /// the table takes the finished run's file (batch.json names its run directory), not the
    /// failed run's left beside it.
    @Test func collectTakesTheFinishedRunNotAnEarlierFailedOne() throws {
        let dir = try BatchSupport.scratch("collect-rerun")
        let recordings = dir.appendingPathComponent("rec")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        let file = recordings.appendingPathComponent("a.jsonl")
        let good = (0..<2000).map { "{\"t\": \($0), \"v\": 1}\n" }.joined()
        try (good + "{bad\n").write(to: file, atomically: true, encoding: .utf8)
        let pipeline = dir.appendingPathComponent("copy.yaml")
        try """
        name: copy
        clock: virtual
        sources:
          rec: {type: file, path: placeholder.jsonl}
        sinks:
          log: {type: logger.csv, inputs: [rec], directory: out}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let arguments = [
            pipeline.path, "--input", recordings.path + "/*.jsonl", "--output", out.path, "--collect", "rec.csv",
        ]
        let failed = try BatchSupport.batch(arguments)
        #expect(failed.status == 1, "\(failed.err)")
        #expect(failed.err.contains("rec.csv not collected: not every recording finished"), "\(failed.err)")
        let folder = out.appendingPathComponent("a").path
        let firstRuns = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "batch.json" }
        try #require(firstRuns.count == 1)
        #expect(
            FileManager.default.fileExists(atPath: folder + "/" + firstRuns[0] + "/rec.csv"),
            "the failed run wrote rows")
        #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("rec.csv").path))

        try "{\"t\": 0, \"v\": 7}\n{\"t\": 1, \"v\": 8}\n".write(to: file, atomically: true, encoding: .utf8)
        let finished = try BatchSupport.batch(arguments)
        #expect(finished.status == 0, "\(finished.err)")
        let runs = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0 != "batch.json" }
        #expect(runs.count == 2, "\(runs)")
        let table = try BatchSupport.pythonCSV(out.appendingPathComponent("rec.csv"))
        let v = try #require(table.first?.firstIndex(of: "v"))
        #expect(table.dropFirst().filter { $0[0] == "a" && !$0[v].isEmpty }.map { $0[v] } == ["7", "8"], "\(table)")
    }

    /// Usage that cannot give one table is refused before anything runs, and --help says how
    /// a sharded batch collects.
    @Test func collectRefusesUsageThatCannotGiveOneTable() throws {
        let dir = try BatchSupport.scratch("collect-usage")
        try BatchSupport.writeRecordings(["a"], in: dir)
        let base = [Self.pipeline, "--input", dir.path + "/*.cwa", "--output", dir.appendingPathComponent("out").path]
        let cases: [([String], String)] = [
            (["--collect", "features.json"], "--collect reads CSV (.csv) or JSON Lines (.jsonl) files"),
            (["--collect", "a/features.csv"], "--collect expects a file name such as daily.csv, not a path"),
            (["--collect-only"], "--collect-only needs --collect NAME"),
            (["--collect", "features.csv", "--shard", "1/2"], "run the batch with --collect-only and without --shard"),
        ]
        for (extra, message) in cases {
            let r = try BatchSupport.batch(base + extra)
            #expect(r.status == 64, "\(extra): \(r.err)")
            #expect(r.err.contains(message), "\(extra): \(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("out").path), "nothing ran")
        let help = try DAQBinary.run(["batch", "--help"]).out.split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        #expect(help.contains("--collect-only and without --shard runs nothing and collects"), "\(help)")
        #expect(help.contains("A shard that gets none of the inputs has nothing to do and exits 0."), "\(help)")
    }

    /// JSON Lines: every object gets a "recording" key first; quoting and line counts hold.
    @Test func collectJSONLinesAddsTheRecordingKey() throws {
        let dir = try BatchSupport.scratch("collect-jsonl")
        let recordings = dir.appendingPathComponent("rec")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        for (name, count) in [("q\"uote", 3), ("plain", 2)] {
            let lines = (0..<count).map { "{\"t\": \($0), \"note\": \"a,b\\nc\"}\n" }.joined()
            try lines.write(to: recordings.appendingPathComponent("\(name).jsonl"), atomically: true, encoding: .utf8)
        }
        let pipeline = dir.appendingPathComponent("copy.yaml")
        try """
        name: copy
        clock: virtual
        sources:
          rec: {type: file, path: placeholder.jsonl}
        sinks:
          log: {type: logger.jsonl, inputs: [rec], directory: out}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let out = dir.appendingPathComponent("out")
        let r = try BatchSupport.batch([
            pipeline.path, "--input", recordings.path + "/*.jsonl", "--output", out.path, "--collect", "rec.jsonl",
        ])
        #expect(r.status == 0, "\(r.err)")
        let merged = try BatchSupport.text(out.appendingPathComponent("rec.jsonl")).split(separator: "\n")
        var expected: [String] = []
        for name in ["plain", "q\"uote"] {
            let own = try BatchSupport.text(try BatchSupport.runFile("rec.jsonl", of: name, under: out))
            expected += own.split(separator: "\n").map { String($0) }.map { _ in name }
        }
        let recordingsOfRows = try merged.map { line -> String in
            #expect(line.hasPrefix("{\"recording\":"), "\(line)")
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            return object?["recording"] as? String ?? ""
        }
        #expect(recordingsOfRows == expected)
    }
}
