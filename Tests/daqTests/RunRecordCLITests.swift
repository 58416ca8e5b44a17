import DAQTesting
import Foundation
import Testing

/// The run record with the real `daq` binary: a killed run, a disk that fills up.
@Suite("daq run record", .timeLimit(.minutes(20)))
struct RunRecordCLITests {
    static func temp(_ label: String) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static func json(_ path: String) throws -> [String: Any] {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Starts `daq run` of a realtime generator at `rate` into the sinks `sinks` gives (YAML
    /// lines under `sinks:`, given the output directory), its events on stderr, for a test that
    /// kills it; returns the process and the output directory.
    static func startKillable(_ label: String, rate: Int, sinks: (String) -> String) throws -> (LiveProcess, URL) {
        let dir = try temp(label)
        let out = dir.appendingPathComponent("out")
        let pipeline = dir.appendingPathComponent("killed.yaml")
        try
            "name: killed\nclock: realtime\nsources:\n  gen: {type: generator, rate: \(rate)}\nsinks:\n\(sinks(out.path))\n"
            .write(to: pipeline, atomically: true, encoding: .utf8)
        let daq = try LiveProcess([
            "run", pipeline.path, "--events", "jsonl", "--flush-interval", "0.05", "--status", "never", "--no-control",
        ])
        return (daq, out)
    }

    static func onlyEntry(_ dir: URL) throws -> String {
        let entries = try FileManager.default.contentsOfDirectory(atPath: dir.path)
        try #require(entries.count == 1, "\(entries)")
        return dir.appendingPathComponent(entries[0]).path
    }

    /// The items of a run's `gen.json`, `gen.jsonl` and `gen.csv` as Python's json and csv
    /// modules read them (the CSV's header apart). Python fails on a log it cannot parse.
    static func pythonItemCounts(_ run: String) throws -> [String: Int] {
        let script = """
            import csv, json, sys
            run = sys.argv[1]
            items = json.load(open(run + '/gen.json', encoding='utf-8'))['items']
            text = open(run + '/gen.jsonl', encoding='utf-8').read()
            assert text.endswith('\\n'), 'gen.jsonl: the last line is not ended'
            lines = [json.loads(line) for line in text.split('\\n')[:-1]]
            rows = list(csv.reader(open(run + '/gen.csv', newline='', encoding='utf-8'), strict=True))
            assert all(len(row) == len(rows[0]) for row in rows), 'gen.csv: rows of other lengths than the header'
            print(json.dumps({'gen.json': len(items), 'gen.jsonl': len(lines), 'gen.csv': len(rows) - 1}))
            """
        let r = try DAQBinary.tool(["python3", "-c", script, run], timeout: 120)
        try #require(r.status == 0, "Python could not read the repaired logs: \(r.err)")
        return try #require(try JSONSerialization.jsonObject(with: r.out) as? [String: Int])
    }

    /// kill -9 leaves a manifest that says running: `daq inspect` tells it from a live run,
    /// `daq repair` closes the logs and marks the run interrupted, and a second repair changes nothing.
    @Test func aKilledRunIsRecognisedAndRepaired() throws {
        let (daq, out) = try Self.startKillable("killed", rate: 2000) { out in
            """
              json: {type: logger.json, inputs: [gen], directory: "\(out)"}
              jsonl: {type: logger.jsonl, inputs: [gen], directory: "\(out)"}
              csv: {type: logger.csv, inputs: [gen], directory: "\(out)"}
            """
        }
        // Synchronised on the events: every logger has delivered rows to its file.
        let wanted = ["json", "jsonl", "csv"].map { "\"event\":\"delivered\",\"component\":\"\($0)\"" }
        try #require(daq.rawStderr(timeout: 60) { wanted.allSatisfy($0.contains) } != nil, "\(daq.stderr.suffix(2000))")
        let run = try Self.onlyEntry(out)
        let live = try DAQBinary.run(["inspect", run])
        #expect(live.status == 0 && live.out.contains(": running"), "\(live)")
        let notYet = try DAQBinary.run(["repair", run])
        #expect(notYet.status == 1 && notYet.err.contains("still writing this run; left as it is"), "\(notYet)")

        kill(daq.process.processIdentifier, SIGKILL)
        #expect(daq.finish(timeout: 60) == SIGKILL)
        #expect(try Self.json(run + "/manifest.json")["status"] as? String == "running")

        let inspected = try DAQBinary.run(["inspect", run])
        #expect(inspected.status == 0, "\(inspected)")
        #expect(inspected.out.contains("interrupted") && inspected.out.contains("daq repair"), "\(inspected.out)")

        let repaired = try DAQBinary.run(["repair", run])
        #expect(repaired.status == 0, "\(repaired)")
        let manifest = try Self.json(run + "/manifest.json")
        #expect(manifest["status"] as? String == "interrupted")
        #expect(manifest["endDate"] is String)
        let files = try #require(manifest["files"] as? [[String: Any]])
        #expect(Set(files.compactMap { $0["path"] as? String }) == ["gen.json", "gen.jsonl", "gen.csv"])
        // The repaired logs read by Python's json and csv modules, readers we did not write: each
        // parses whole, and holds as many items as the manifest says it does.
        let counted = try Self.pythonItemCounts(run)
        for f in files {
            let path = f["path"] as? String ?? ""
            #expect(f["samples"] as? Int == counted[path] && f["sha256"] is String, "\(f), Python read \(counted)")
        }
        #expect(counted.values.allSatisfy { $0 > 0 }, "the run had logged before it was killed: \(counted)")

        let before = try FileManager.default.contentsOfDirectory(atPath: run).sorted()
        let manifestBefore = try Data(contentsOf: URL(fileURLWithPath: run + "/manifest.json"))
        let again = try DAQBinary.run(["repair", run])
        #expect(again.status == 0 && again.out.contains("interrupted"), "\(again)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: run).sorted() == before)
        #expect(try Data(contentsOf: URL(fileURLWithPath: run + "/manifest.json")) == manifestBefore)
    }

    /// kill -9 while a `parquet` sink rolls parts: `daq repair` closes the open part at its last
    /// complete row group, and pyarrow reads the folder as one table whose `seq` runs from 0
    /// with no hole: every row of every complete row group, and nothing else.
    @Test func aKilledRunsOpenParquetPartIsClosedByRepair() throws {
        let (daq, out) = try Self.startKillable("killed-parquet", rate: 1000) { out in
            """
              pq: {type: parquet, inputs: [gen], directory: "\(out)", roll: {rows: 2000}, row_group_rows: 100}
            """
        }
        // Synchronised on the files: two parts closed, a third open with a row group in it. A part
        // lasts 2 s, so the kill lands while the third is open (between two parts, none is).
        func openPart() -> String? {
            guard let entries = try? FileManager.default.contentsOfDirectory(atPath: out.path), entries.count == 1
            else { return nil }
            return ParquetOpenParts.list(out.path + "/" + entries[0]).first { $0.hasSuffix("/part-00003.parquet") }
        }
        let found = daq.rawStderr(timeout: 120) { _ in
            guard let part = openPart(),
                let size = try? FileManager.default.attributesOfItem(atPath: part)[.size] as? Int
            else { return false }
            return size > 200
        }
        try #require(found != nil, "no third part: \(daq.stderr.suffix(2000))")
        // A file its run is still writing is not cut under it.
        let writing = try #require(openPart())
        let refused = try DAQBinary.run(["repair", writing])
        #expect(refused.status == 1 && refused.err.contains("still writing"), "\(refused)")
        kill(daq.process.processIdentifier, SIGKILL)
        #expect(daq.finish(timeout: 60) == SIGKILL)
        let run = try Self.onlyEntry(out)
        let open = try #require(ParquetOpenParts.list(run).first)

        let repaired = try DAQBinary.run(["repair", run])
        #expect(repaired.status == 0, "\(repaired)")
        #expect(repaired.out.contains("closed with"), "\(repaired.out)")
        #expect(ParquetOpenParts.list(run).isEmpty)
        let folder = (open as NSString).deletingLastPathComponent
        let read = try Process.runToEnd(
            "python3",
            [
                "-c",
                """
                import sys, glob, pyarrow.parquet as pq
                files = sorted(glob.glob(sys.argv[1] + '/*.parquet'))
                seq = [v for f in files for v in pq.read_table(f).column('seq').to_pylist() if v is not None]
                print(len(files), len(seq), int(seq == list(range(len(seq)))))
                """,
                folder,
            ], timeout: 300)
        try #require(read.status == 0, "pyarrow could not read the repaired parts: \(read.errors.suffix(2000))")
        let fields = String(decoding: read.stdout, as: UTF8.self).split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(fields.count == 3 && fields[0] >= 3 && fields[1] >= 2_000 && fields[2] == 1, "\(fields)")
        let again = try DAQBinary.run(["repair", run])
        #expect(again.status == 0 && !again.out.contains("closed with"), "\(again)")
    }

    /// A logger whose files cannot grow (RLIMIT_FSIZE, as a full disk): the run fails, its
    /// record says so, and the logger's counters add up: what it could not write is failed.
    @Test func aLoggerOnAFullDiskFailsWithCountersThatAddUp() throws {
        let dir = try Self.temp("full")
        let out = dir.appendingPathComponent("out")
        let pipeline = dir.appendingPathComponent("full.yaml")
        try """
        name: full
        clock: virtual
        sources:
          gen: {type: generator, rate: 1000, count: 50000}
        sinks:
          log: {type: logger.jsonl, inputs: [gen], directory: "\(out.path)"}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        // 64 blocks of 512 bytes per file; SIGXFSZ ignored, so a write past it fails with EFBIG.
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [
            "-c", "trap '' XFSZ; ulimit -f 64; exec \"$0\" \"$@\"", DAQBinary.url.path, "run", pipeline.path,
            "--status", "never",
        ]
        let ran = try p.runToEnd(timeout: 120)
        let stderr = ran.errors
        #expect(ran.status == 1, "\(stderr)")

        let run = try Self.onlyEntry(out)
        let manifest = try Self.json(run + "/manifest.json")
        #expect(manifest["status"] as? String == "failed", "\(manifest)")
        #expect((manifest["failure"] as? String)?.contains("File too large") == true, "\(manifest)")
        let stages = try #require(manifest["stages"] as? [[String: Any]])
        let log = try #require(stages.first { $0["name"] as? String == "log" })
        let (sent, delivered, failed, queued) = (
            log["sent"] as? Int ?? -1, log["delivered"] as? Int ?? -1, log["failed"] as? Int ?? -1,
            log["queued"] as? Int ?? -1
        )
        #expect(sent > 0 && failed > 0 && queued == 0, "\(log)")
        #expect(sent == delivered + failed + queued, "\(log)")
        #expect(!FileManager.default.fileExists(atPath: run + "/manifest.json.tmp"))
        #expect(stderr.contains("full: failed"), "\(stderr)")
    }

    /// No file may grow at all: the first manifest cannot be written, so the run does not
    /// start, says why, and leaves no directory (nor a 0-byte `manifest.json.tmp`).
    @Test func aRunWhoseRecordCannotBeWrittenDoesNotStart() throws {
        let dir = try Self.temp("norecord")
        let out = dir.appendingPathComponent("out")
        let pipeline = dir.appendingPathComponent("norecord.yaml")
        try """
        name: norecord
        clock: virtual
        sources:
          gen: {type: generator, count: 10}
        sinks:
          log: {type: logger.jsonl, inputs: [gen], directory: "\(out.path)"}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/sh")
        p.arguments = [
            "-c", "trap '' XFSZ; ulimit -f 0; exec \"$0\" \"$@\"", DAQBinary.url.path, "run", pipeline.path, "--status",
            "never",
        ]
        let ran = try p.runToEnd(timeout: 120)
        let stderr = ran.errors
        #expect(ran.status == 1, "\(stderr)")
        #expect(stderr.contains("cannot start the run record") && stderr.contains("File too large"), "\(stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out.path).isEmpty)
    }

    /// `--set name=../../ESCAPED` is refused before anything is written.
    @Test func aPipelineNameIsNotAPath() throws {
        let dir = try Self.temp("name")
        let out = dir.appendingPathComponent("a/b/out")
        let pipeline = dir.appendingPathComponent("p.yaml")
        try """
        name: fine
        clock: virtual
        sources:
          gen: {type: generator, count: 5}
        sinks:
          log: {type: logger.jsonl, inputs: [gen], directory: "\(out.path)"}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        for verb in ["validate", "run"] {
            let r = try DAQBinary.run([verb, pipeline.path, "--set", "name=../../ESCAPED"])
            #expect(r.status == 2, "\(r)")
            #expect(r.err.contains("name: '../../ESCAPED' contains '/'"), "\(r.err)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("a").path))
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("ESCAPED").path))
    }
}

/// The Parquet files a run left open: those with a checkpoint (`.footer`) beside them.
enum ParquetOpenParts {
    static func list(_ directory: String) -> [String] {
        (FileManager.default.subpaths(atPath: directory) ?? []).filter { $0.hasSuffix(".parquet.footer") }.sorted()
            .map { directory + "/" + String($0.dropLast(".footer".count)) }
    }
}
