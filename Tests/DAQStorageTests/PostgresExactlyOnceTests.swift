import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQStorage

/// The bookkeeping that makes a flush go in once: the same flush committed twice (as the sink
/// does when a COMMIT's answer was lost with the connection) writes its rows once.
@Suite("postgres sink: a replayed flush", .serialized, .timeLimit(.minutes(5)))
struct PostgresExactlyOnceTests {
    static func batch(_ n: Int) -> Batch {
        var b = Batch(
            stream: "gen",
            samples: (0..<n).map { i in
                Sample(
                    stream: "gen", timestamp: 1_700_000_000 + Double(i) / 10, uptime: Double(i) / 10,
                    fields: ["seq": .int(Int64(i)), "value": .double(Double(i) * 0.5)])
            })
        b.stream = "gen"
        return b
    }

    @Test func aReplayedFlushIsANoOp() async throws {
        let server = try PostgresServer()
        try server.start()
        guard case .success(let target) = PostgresTarget.parse(server.tcpURL()) else {
            Issue.record("the test's URL does not parse")
            return
        }
        let connection = try await PostgresSession.connect(
            target: target, password: server.password, connectTimeout: 5, id: 1)
        let session = PostgresSession(connection: connection, target: target, table: "replayed")
        var layout = PostgresTableLayout()
        layout.add(PostgresColumn(name: "seq", type: .int8))
        layout.add(PostgresColumn(name: "value", type: .float8))
        let (prepared, hypertable) = try await session.prepare(layout, hypertable: true)
        #expect(!hypertable, "Debian's server has no TimescaleDB")
        var builder = PostgresFlushBuilder(
            layout: prepared, origin: PostgresFlushOrigin(runID: "run-1", component: "db", table: "replayed"))
        builder.append(Self.batch(25), rows: 0..<25)
        let sealed = builder.seal()
        let flush = try #require(sealed)
        #expect(flush.sequence == 1 && flush.rows == 25)
        #expect(try await session.commit(flush) == .committed)
        #expect(try await session.commit(flush) == .alreadyCommitted)
        // Another run's flush 1 is another flush.
        var other = flush
        other.origin.runID = "run-2"
        #expect(try await session.commit(other) == .committed)
        await session.close()
        #expect(try server.query("SELECT count(*), count(DISTINCT seq), sum(value) FROM replayed") == "50|25|300")
        #expect(
            try server.query("SELECT run_id, seq, rows FROM daq_flushes ORDER BY run_id") == "run-1|1|25\nrun-2|1|25")
    }
}

/// `url` as the sink reads it, and the statement that makes postgres-nio's COPY binary.
@Suite("postgres sink: settings")
struct PostgresTargetTests {
    @Test(arguments: [
        ("postgres://daq@db.lab:6543/samples", "db.lab:6543/samples", PostgresTarget.TLSMode.prefer),
        ("postgresql://daq@127.0.0.1/samples?sslmode=disable", "127.0.0.1:5432/samples", .disable),
        ("postgres://daq@/samples?host=/run/postgresql", "/run/postgresql/.s.PGSQL.5432/samples", .prefer),
        ("postgres://daq@/samples?host=/tmp/pg&port=5499", "/tmp/pg/.s.PGSQL.5499/samples", .prefer),
        ("postgres://daq@[::1]:5433", "[::1]:5433/daq", .prefer),
    ])
    func parses(url: String, display: String, tls: PostgresTarget.TLSMode) throws {
        let target = try PostgresTarget.parse(url).get()
        #expect(target.display == display)
        #expect(target.user == "daq")
        #expect(target.tls == tls)
    }

    @Test(arguments: [
        ("postgres://daq:hunter2@db/x", "carries a password"),
        ("mysql://daq@db/x", "expected postgres://"),
        ("postgres://db/x", "names no user"),
        ("postgres://daq@db:99999/x", "not 1 to 65535"),
        ("postgres://daq@db/x?sslmode=verify", "sslmode must be"),
        ("postgres://daq@db/x?timeout=3", "unknown query item 'timeout'"),
    ])
    func refuses(url: String, problem: String) {
        guard case .failure(let e) = PostgresTarget.parse(url) else {
            Issue.record("\(url) parsed")
            return
        }
        #expect(e.text.contains(problem), "\(e.text)")
        #expect(!e.text.contains("hunter2"))
    }

    @Test func theCopyStatementIsBinaryAndQuoted() {
        let target = PostgresSession.binaryCopyTarget(
            "a\"b", [PostgresColumn(name: "time", type: .timestamptz), PostgresColumn(name: "x\"y", type: .text)])
        // postgres-nio writes `COPY "<target>" FROM STDIN WITH (FORMAT text)`.
        let statement = "COPY \"\(target)\" FROM STDIN WITH (FORMAT text)"
        #expect(
            statement
                == #"COPY "a""b" ("time", "x""y") FROM STDIN WITH (FORMAT binary) --" FROM STDIN WITH (FORMAT text)"#)
    }

    @Test func defaultTableNames() {
        #expect(PostgresSQL.defaultTable(pipeline: "Walk-Test", component: "db") == "walk_test_db")
        #expect(PostgresSQL.defaultTable(pipeline: String(repeating: "p", count: 70), component: "db").utf8.count == 63)
    }
}
