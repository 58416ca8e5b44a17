import DAQTesting
import Foundation
import Testing

/// `daq run` with a `postgres` sink against a real server: a server that goes away mid-run and
/// comes back, and a server that refuses the sink at start.
@Suite("postgres sink: server loss and refusal", .serialized, .timeLimit(.minutes(10)))
struct PostgresServerLossTests {
    static var daq: String { ServiceProcess.builtExecutable("daq") }

    static func write(_ yaml: String) throws -> (file: String, directory: String) {
        let dir = tempDirectory()
        let file = dir + "/pipeline.yaml"
        try yaml.write(toFile: file, atomically: true, encoding: .utf8)
        return (file, dir)
    }

    /// The server stopped (`pg_ctl stop -m fast`) while the run writes, kept down for 5 s of run
    /// time, started again: every sample is in the table exactly once.
    @Test func serverStoppedMidRunEverySampleOnce() throws {
        let server = try PostgresServer()
        try server.start()
        // Steps mark when the server goes down and comes back: 5 s apart on the run clock.
        let (file, dir) = try Self.write(
            """
            name: pg-outage
            clock: realtime
            steps: [{path: before, at: 0}, {path: outage-begins, at: 2}, {path: outage-ends, at: 7}]
            sources: {gen: {type: generator, signal: noise, rate: 200, count: 2000}}
            sinks:
              db: {type: postgres, inputs: [gen], url: "\(server.tcpURL())", password_env: PGTEST_PASSWORD, flush_rows: 50, reconnect_delay: 0.1, max_reconnect_delay: 0.5, commit_timeout: 3}
            """)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try ServiceProcess.start(
            Self.daq, ["run", file, "--status", "never", "--no-control", "--events", "jsonl"],
            environment: ["PGTEST_PASSWORD": server.password], directory: dir)
        try run.waitForError(containing: "\"stepPath\":\"outage-begins\"", timeout: 60)
        try server.stop()
        // The sink notices when its next flush fails, then keeps what it cannot write.
        try run.waitForError(containing: "rows wait until the server is back", timeout: 60)
        try run.waitForError(containing: "\"stepPath\":\"outage-ends\"", timeout: 60)
        try server.start()
        let status = try run.waitForExit(timeout: 120)
        #expect(status == 0, "\(run.errorOutput)")
        #expect(run.errorOutput.contains("reconnected to"), "\(run.errorOutput)")
        // The summary says how many rows went to which table.
        let markers = Int(try server.query("SELECT count(*) FROM pg_outage_db WHERE kind = 'marker'")) ?? -1
        #expect(
            run.errorOutput.contains("db: committed \(2000 + markers) rows to table pg_outage_db on 127.0.0.1:"),
            "\(run.errorOutput)")
        let counts = try server.query(
            "SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM pg_outage_db WHERE kind = 'data'")
        #expect(counts == "2000|2000|0|1999")
    }

    /// pipelines/to-postgres.yaml as its comment says to run it (sped up to the virtual clock):
    /// the walk's 6,000 samples with their magnitude, in the table it names.
    @Test func theShippedPipelineWritesTheWalk() throws {
        let server = try PostgresServer()
        try server.start()
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
        let r = try Process.runToEnd(
            Self.daq,
            ["run", "pipelines/to-postgres.yaml", "--set", "clock=virtual", "--status", "never", "--no-control"],
            directory: root,
            environment: ["PG_URL": server.socketURL(), "PGPASSWORD": server.password, "TABLE": "walk_test"],
            timeout: 300)
        #expect(r.status == 0, "\(r.errors)")
        #expect(
            try server.query(
                "SELECT count(*), count(magnitude), count(DISTINCT time) FROM walk_test WHERE kind = 'data'")
                == "6000|6000|6000")
        let all = try server.query("SELECT count(*) FROM walk_test")
        #expect(r.errors.contains("db: committed \(all) rows to table walk_test"), "\(r.errors)")
    }

    /// What a refused start looks like: the message, the exit status, and no run folder.
    @Test(arguments: [
        ("wrong password", "password authentication failed for user \"daq\""),
        ("missing database", "database \"nosuchdb\" does not exist"),
    ])
    func refusedAtStart(what: String, message: String) throws {
        let server = try PostgresServer()
        try server.start()
        let database = what == "missing database" ? "nosuchdb" : "postgres"
        let password = what == "wrong password" ? "not-" + server.password : server.password
        let (file, dir) = try Self.write(
            """
            name: pg-refused
            clock: virtual
            sources: {gen: {type: generator, rate: 100, count: 100}}
            sinks:
              db: {type: postgres, inputs: [gen], url: "\(server.socketURL(database))", password_env: PGTEST_PASSWORD}
              log: {type: logger.csv, inputs: [gen], directory: out}
            """)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Process.runToEnd(
            Self.daq, ["run", file, "--status", "never", "--no-control"], directory: dir,
            environment: ["PGTEST_PASSWORD": password], timeout: 120)
        #expect(r.status != 0)
        #expect(r.errors.contains(message), "\(r.errors)")
        #expect(r.errors.contains("\(server.socketDirectory)/.s.PGSQL.\(server.port)/\(database)"), "\(r.errors)")
        #expect(!r.errors.contains(password), "the password is never printed")
        // Sinks start in their order: the logger after `db`, so it never made its folder.
        let runs = (try? FileManager.default.contentsOfDirectory(atPath: dir + "/out")) ?? []
        #expect(runs.isEmpty, "a run that failed to start leaves no run folder: \(runs)")
        // A logger that started first keeps its folder, whose manifest says why the run failed
        // (the engine's rule for every sink that fails at start).
        var lines = try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
        let db = try #require(lines.firstIndex { $0.hasPrefix("  db:") })
        lines.swapAt(db, db + 1)
        let (first, firstDir) = try Self.write(lines.joined(separator: "\n") + "\n")
        defer { try? FileManager.default.removeItem(atPath: firstDir) }
        let again = try Process.runToEnd(
            Self.daq, ["run", first, "--status", "never", "--no-control"], directory: firstDir,
            environment: ["PGTEST_PASSWORD": password], timeout: 120)
        #expect(again.status != 0)
        let folders = try FileManager.default.contentsOfDirectory(atPath: firstDir + "/out")
        try #require(folders.count == 1, "\(folders)")
        let manifest = try String(contentsOfFile: "\(firstDir)/out/\(folders[0])/manifest.json", encoding: .utf8)
        #expect(
            manifest.contains("\"status\" : \"failed\"") || manifest.contains("\"status\":\"failed\""), "\(manifest)")
        #expect(manifest.contains(message.replacingOccurrences(of: "\"", with: "\\\"")), "\(manifest)")
    }
}
