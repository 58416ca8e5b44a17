import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQStorage

/// `postgres` with `spool:`: flushes a run could not commit wait on disk, and the next run
/// commits them first, under their own run id, so none goes in twice and none is lost.
@Suite("postgres sink: the spool", .serialized, .timeLimit(.minutes(10)))
struct PostgresSpoolTests {
    static var daq: String { ServiceProcess.builtExecutable("daq") }

    static var layout: PostgresTableLayout {
        var layout = PostgresTableLayout()
        layout.add(PostgresColumn(name: "seq", type: .int8))
        layout.add(PostgresColumn(name: "value", type: .float8))
        return layout
    }

    static func flush(rows: Int, origin: PostgresFlushOrigin) throws -> PostgresFlush {
        var builder = PostgresFlushBuilder(layout: layout, origin: origin)
        builder.append(PostgresExactlyOnceTests.batch(rows), rows: 0..<rows)
        let sealed = builder.seal()
        return try #require(sealed)
    }

    static func spoolFiles(_ dir: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? []).filter { $0.hasSuffix(".spool") }
    }

    /// A flush written to the spool and read back by a new spool (as the next run opens it) is
    /// the same flush: origin, number, columns, rows and the `COPY` bytes.
    @Test func aFlushComesBackFromTheSpoolWhole() throws {
        let dir = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let origin = PostgresFlushOrigin(runID: "run-a", component: "db", table: "t")
        let flush = try Self.flush(rows: 30, origin: origin)
        do {
            let (spool, recovered) = try MessageSpool.open(directory: dir)
            #expect(recovered.isEmpty)
            var record: [UInt8] = []
            let sequence = spool.reserve(1)
            PostgresSpooledFlush.append(flush, server: "127.0.0.1:5432/lab", spoolSequence: sequence, to: &record)
            try spool.append(record, sequences: [(sequence, flush.rows)])
            spool.close()
        }
        let (spool, recovered) = try MessageSpool.open(directory: dir)
        defer { spool.close() }
        try #require(recovered.count == 1)
        let (back, server) = try PostgresSpooledFlush.flush(from: recovered[0], spool: dir)
        #expect(server == "127.0.0.1:5432/lab")
        #expect(back.origin == origin && back.sequence == flush.sequence && back.rows == 30)
        #expect(back.columns == flush.columns && back.added == flush.added)
        #expect(back.payload == flush.payload)
        #expect(back.spooled == recovered[0].sequence)
        // A record cut inside its header is damage, named as such.
        var cut = recovered[0]
        cut.payload = Array(cut.payload.prefix(12))
        #expect(throws: SpoolError.self) { try PostgresSpooledFlush.flush(from: cut, spool: dir) }
        var other = recovered[0]
        other.options = 9
        let refused = #expect(throws: SpoolError.self) { try PostgresSpooledFlush.flush(from: other, spool: dir) }
        #expect(refused?.description.contains("layout 9") == true)
    }

    /// A flush that went in, but whose acknowledgement never reached the spool (the run was
    /// killed between COMMIT and that write), is left there: the next run meets its bookkeeping
    /// row and writes nothing, then lets it go.
    @Test func aSpooledFlushThatWentInBeforeIsNotWrittenAgain() async throws {
        let server = try PostgresServer()
        try server.start()
        guard case .success(let target) = PostgresTarget.parse(server.socketURL()) else {
            Issue.record("the test's URL does not parse")
            return
        }
        let dir = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let spoolDir = dir + "/spool"
        let flush = try Self.flush(
            rows: 25, origin: PostgresFlushOrigin(runID: "killed-run", component: "db", table: "spooled"))
        let connection = try await PostgresSession.connect(
            target: target, password: server.password, connectTimeout: 5, id: 1)
        let session = PostgresSession(connection: connection, target: target, table: "spooled")
        _ = try await session.prepare(Self.layout, hypertable: false)
        #expect(try await session.commit(flush) == .committed)
        await session.close()
        func spoolIt(in directory: String, server: String) throws {
            let (spool, _) = try MessageSpool.open(directory: directory)
            var record: [UInt8] = []
            let sequence = spool.reserve(1)
            PostgresSpooledFlush.append(flush, server: server, spoolSequence: sequence, to: &record)
            try spool.append(record, sequences: [(sequence, flush.rows)])
            spool.close()
        }
        try spoolIt(in: spoolDir, server: target.display)
        try spoolIt(in: dir + "/elsewhere", server: "10.0.0.9:5432/lab")
        let file = dir + "/pipeline.yaml"
        try """
        name: pg-spool-again
        clock: virtual
        sources: {fresh: {type: generator, rate: 100, count: 10}}
        sinks:
          db: {type: postgres, inputs: [fresh], url: "\(server.socketURL())", password_env: PGTEST_PASSWORD, table: spooled, spool: spool}
        """.write(toFile: file, atomically: true, encoding: .utf8)
        // A spool filled for another server is refused at start: its daq_flushes rows are there.
        let refused = try Process.runToEnd(
            Self.daq, ["run", file, "--status", "never", "--no-control", "--set", "sinks.db.spool=elsewhere"],
            directory: dir, environment: ["PGTEST_PASSWORD": server.password], timeout: 120)
        #expect(refused.status != 0)
        #expect(refused.errors.contains("holds flushes for 10.0.0.9:5432/lab"), "\(refused.errors)")
        let r = try Process.runToEnd(
            Self.daq, ["run", file, "--status", "never", "--no-control"], directory: dir,
            environment: ["PGTEST_PASSWORD": server.password], timeout: 120)
        #expect(r.status == 0, "\(r.errors)")
        #expect(r.errors.contains("committing 25 rows (1 flushes) left in the spool"), "\(r.errors)")
        #expect(r.errors.contains("flush 1 was committed before its answer was lost; not written again"), "\(r.errors)")
        #expect(try server.query("SELECT count(*), count(DISTINCT seq) FROM spooled WHERE stream = 'gen'") == "25|25")
        #expect(try server.query("SELECT count(*) FROM spooled WHERE stream = 'fresh' AND kind = 'data'") == "10")
        #expect(try server.query("SELECT count(*) FROM daq_flushes WHERE run_id = 'killed-run'") == "1")
        #expect(Self.spoolFiles(spoolDir).isEmpty, "settled flushes leave the spool: \(Self.spoolFiles(spoolDir))")
    }

    /// A `postgres` sink line for `table` with a spool in the test's folder, reading `source`.
    static func sink(_ server: PostgresServer, table: String, source: String, extra: String = "") -> String {
        "db: {type: postgres, inputs: [\(source)], url: \"\(server.tcpURL())\", password_env: PGTEST_PASSWORD, table: \(table), flush_rows: 50, spool: spool, reconnect_delay: 0.1, max_reconnect_delay: 0.5, commit_timeout: 3\(extra)}"
    }

    /// Starts a realtime run of `gen` (200 Hz) into `table`, stops the server at its `outage` step
    /// and returns once the sink says its rows wait; `steps` may add steps after the outage.
    static func runIntoAnOutage(
        _ server: PostgresServer, dir: String, table: String, extra: String = "", steps: String = ""
    ) throws -> ServiceProcess {
        try """
        name: pg-spool-\(table)
        clock: realtime
        steps: [{path: before, at: 0}, {path: outage, at: 1}\(steps)]
        sources: {gen: {type: generator, signal: noise, rate: 200, count: 100000}}
        sinks:
          \(sink(server, table: table, source: "gen", extra: extra))
        """.write(toFile: dir + "/first.yaml", atomically: true, encoding: .utf8)
        let run = try ServiceProcess.start(
            daq, ["run", dir + "/first.yaml", "--status", "never", "--no-control", "--events", "jsonl"],
            environment: ["PGTEST_PASSWORD": server.password], directory: dir)
        try run.waitForError(containing: "\"stepPath\":\"outage\"", timeout: 60)
        return run
    }

    /// The next run with the same spool: 10 samples of `fresh` on the virtual clock.
    static func runNext(_ server: PostgresServer, dir: String, table: String, extra: String = "") throws
        -> ChildOutput
    {
        try """
        name: pg-spool-next
        clock: virtual
        sources: {fresh: {type: generator, rate: 100, count: 10}}
        sinks:
          \(sink(server, table: table, source: "fresh", extra: extra))
        """.write(toFile: dir + "/second.yaml", atomically: true, encoding: .utf8)
        return try Process.runToEnd(
            daq, ["run", dir + "/second.yaml", "--status", "never", "--no-control"], directory: dir,
            environment: ["PGTEST_PASSWORD": server.password], timeout: 120)
    }

    /// Count, distinct count, least and greatest `seq` of `gen`'s data rows in `table`.
    static func genCounts(_ server: PostgresServer, table: String) throws -> [Int] {
        try server.query(
            "SELECT count(*), count(DISTINCT seq), min(seq), max(seq) FROM \(table) WHERE kind = 'data' AND stream = 'gen'"
        ).split(separator: "|").map { Int($0) ?? -1 }
    }

    /// The server stopped mid-run, `daq` killed with SIGKILL while flushes wait, the server
    /// started again: the next run with the same spool commits them first. The killed run's
    /// samples are then in the table once each, from the first with no hole; only the rows not
    /// yet sealed into a flush when it died are missing, at the end.
    @Test func aRunKilledDuringAnOutageLeavesItsFlushesToTheNext() throws {
        let server = try PostgresServer()
        try server.start()
        let dir = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try Self.runIntoAnOutage(server, dir: dir, table: "spooled", steps: ", {path: kill, at: 3}")
        let before = Int(try server.query("SELECT count(*) FROM spooled WHERE kind = 'data'")) ?? -1
        try server.stop()
        try run.waitForError(containing: "rows wait until the server is back", timeout: 60)
        try run.waitForError(containing: "\"stepPath\":\"kill\"", timeout: 60)
        run.send(SIGKILL)
        _ = try run.waitForExit(timeout: 60)
        // What the killed run left: the rows of the flushes its spool still holds.
        let left = try {
            let (spool, recovered) = try MessageSpool.open(directory: dir + "/spool")
            defer { spool.close() }
            return recovered.reduce(0) { $0 + $1.samples }
        }()
        #expect(left > 0, "the killed run left its flushes in the spool")

        try server.start()
        let committedBefore = Int(try server.query("SELECT count(*) FROM spooled")) ?? -1
        let next = try Self.runNext(server, dir: dir, table: "spooled")
        #expect(next.status == 0, "\(next.errors)")
        #expect(next.errors.contains("left in the spool"), "\(next.errors)")
        // Every row the spool held went in, once (none had gone in before: the server was down),
        // beside those committed before the outage and the second run's own.
        let summary = try #require(
            next.errors.firstMatch(
                of: /db: committed (\d+) rows to table spooled on [^,]*, and (\d+) rows earlier runs left in its spool/),
            "\(next.errors)")
        #expect(Int(summary.2) == left)
        let all = Int(try server.query("SELECT count(*) FROM spooled")) ?? -1
        let expected = committedBefore + left + (Int(summary.1) ?? -1)
        if next.errors.contains("not written again") {
            // A COMMIT whose answer the outage cut: in the table and in the spool, written once.
            #expect(all < expected, "\(all) < \(committedBefore) + \(left) + \(summary.1)")
        } else {
            #expect(all == expected, "\(all) = \(committedBefore) + \(left) + \(summary.1)")
        }
        let counts = try Self.genCounts(server, table: "spooled")
        try #require(counts.count == 4)
        #expect(counts[0] == counts[1] && counts[2] == 0 && counts[3] == counts[0] - 1, "\(counts)")
        #expect(counts[0] > before, "\(counts[0]) rows, \(before) before the outage")
        #expect(try server.query("SELECT count(*) FROM spooled WHERE kind = 'data' AND stream = 'fresh'") == "10")
        #expect(Self.spoolFiles(dir + "/spool").isEmpty, "\(Self.spoolFiles(dir + "/spool"))")
    }

    /// A run stopped while the server is away leaves what it could not commit within
    /// `drain_timeout` in the spool rather than counting it failed; the next run commits it:
    /// every sample of the first run is in the table, once, from the first with no hole.
    @Test func aRunEndingDuringAnOutageLeavesItsFlushesToTheNext() throws {
        let server = try PostgresServer()
        try server.start()
        let dir = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let run = try Self.runIntoAnOutage(server, dir: dir, table: "drained", extra: ", drain_timeout: 1")
        try server.stop()
        try run.waitForError(containing: "rows wait until the server is back", timeout: 60)
        // Stopped as an operator stops it: the input ends, the sink drains for drain_timeout.
        run.send(SIGINT)
        _ = try run.waitForExit(timeout: 120)
        #expect(run.errorOutput.contains("wait in the spool"), "\(run.errorOutput)")
        #expect(!run.errorOutput.contains("not committed to drained"), "nothing is counted lost: \(run.errorOutput)")

        try server.start()
        let next = try Self.runNext(server, dir: dir, table: "drained", extra: ", drain_timeout: 1")
        #expect(next.status == 0, "\(next.errors)")
        let counts = try Self.genCounts(server, table: "drained")
        try #require(counts.count == 4)
        #expect(counts[0] == counts[1] && counts[2] == 0 && counts[3] == counts[0] - 1, "\(counts)")
        #expect(Self.spoolFiles(dir + "/spool").isEmpty, "\(Self.spoolFiles(dir + "/spool"))")
    }
}
