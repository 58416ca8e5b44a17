import DAQCore
import DAQSampleLogger
import DAQStandard
import DAQStorage
import DAQTesting
import Foundation
import Testing

/// The `postgres` sink against a real PostgreSQL server the test starts (``PostgresServer``):
/// the rows of a run against the CSV logger's of the same run, at every clock and batch size.
///
/// Serialized: the password reaches the sink through the process's environment, as it does in
/// `daq run`, and each test sets it for its own server.
@Suite("postgres sink in a pipeline", .serialized, .timeLimit(.minutes(10)))
struct PostgresPipelineTests {
    static let plugins = StandardPlugins.all + SampleLoggerPlugins.all + StoragePlugins.all

    /// A started server whose password is in `DAQ_TEST_PG_PASSWORD`.
    static func server() throws -> PostgresServer {
        let server = try PostgresServer()
        try server.start()
        setenv("DAQ_TEST_PG_PASSWORD", server.password, 1)
        return server
    }

    /// One row as the comparisons read it: every column as text, `time` as seconds since 1970.
    static func rows(_ server: PostgresServer, table: String) throws -> [[String: String]] {
        let text = try server.query(
            """
            SELECT extract(epoch FROM time)::text, uptime::text, step, kind, coalesce(marker, ''), stream,
                   coalesce(seq::text, ''), coalesce(value::text, '')
            FROM \(table) ORDER BY uptime, kind <> 'marker', marker, step, seq
            """)
        let keys = ["time", "uptime", "step", "kind", "marker", "stream", "seq", "value"]
        return text.split(separator: "\n").map { line in
            Dictionary(
                uniqueKeysWithValues: zip(
                    keys, line.split(separator: "|", omittingEmptySubsequences: false).map(String.init)))
        }
    }

    @Test(arguments: ["socket", "tcp"])
    func rowsEqualTheCSVLoggersRows(connection: String) throws {
        let server = try Self.server()
        let base = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let url = connection == "socket" ? server.socketURL() : server.tcpURL()
        let yaml = """
            name: pg
            clock: virtual
            steps: [{path: rest, at: 0}, {path: walk, at: 2.5}, {path: rest, at: 4}]
            sources: {gen: {type: generator, signal: noise, rate: 100, count: 700}}
            sinks:
              csv: {type: logger.csv, inputs: [gen], directory: "\(base)"}
              db: {type: postgres, inputs: [gen], url: "\(url)", password_env: DAQ_TEST_PG_PASSWORD, flush_rows: 128}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: Self.plugins, options: RunOptions(flushInterval: 0))
        #expect(outcome.result.state == .finished, "\(outcome.result.failureLine ?? "")")
        let dir = try runDirectory(under: base)
        let csv = try ParquetPipelineTests().csvRows(dir + "/gen.csv")
        let db = try Self.rows(server, table: "pg_db")
        try #require(db.count == csv.count, "postgres \(db.count) rows, csv \(csv.count)")
        #expect(db.filter { $0["kind"] == "data" }.count == 700)
        // The CSV's times count from t0, the first data row's time minus its uptime.
        let first = try #require(db.first { $0["kind"] == "data" })
        let t0 = Double(first["time"]!)! - Double(first["uptime"]!)!
        // The same rows as a multiset: markers and samples at one uptime may come in either order.
        func key(_ uptime: String?, _ step: String?, _ marker: String?, _ seq: String?, _ value: String?) -> String {
            "\(Double(uptime ?? "") ?? .nan)|\(step ?? "")|\(marker ?? "")|\(seq ?? "")|\(value.flatMap(Double.init) ?? .nan)"
        }
        let csvKeys = csv.map { key($0["uptime"], $0["stepPath"], $0["marker"], $0["seq"], $0["value"]) }.sorted()
        let dbKeys = db.map { key($0["uptime"], $0["step"], $0["marker"], $0["seq"], $0["value"]) }.sorted()
        #expect(csvKeys == dbKeys)
        // Every data row's time is the run's start plus its uptime, to the microsecond.
        var times: [String: Double] = [:]
        for c in csv where c["marker"] == "" { times[c["seq"]!] = Double(c["timestamp"]!)! }
        for r in db where r["kind"] == "data" {
            let csvTime = try #require(times[r["seq"]!])
            #expect(abs(Double(r["time"]!)! - t0 - csvTime) < 2e-6, "\(r)")
        }
        // Everything sent was reported delivered, markers included, and the manifest says where.
        let sent = outcome.events.reduce(0) { if case .sent("db", let n, _) = $1 { $0 + n } else { $0 } }
        let delivered = outcome.events.reduce(0) { if case .delivered("db", let n, _) = $1 { $0 + n } else { $0 } }
        #expect(sent == csv.count && delivered == sent)
        let manifest = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))))
        guard case .object(let m) = manifest, case .object(let results)? = m["results"],
            case .object(let db)? = results["db"], case .object(let pg)? = db["postgres"]
        else {
            Issue.record("no postgres result in the manifest: \(manifest)")
            return
        }
        #expect(pg["table"] == "pg_db")
        #expect(pg["rows"] == .int(Int64(csv.count)))
        // One bookkeeping row per flush, each numbered once.
        let flushes = try server.query("SELECT count(*), count(DISTINCT seq), sum(rows) FROM daq_flushes")
        #expect(flushes.hasSuffix("|\(csv.count)"), "\(flushes)")
    }

    /// The same pipeline at the virtual and replay clocks, in batches of 1, 7 and 4,096: the
    /// same rows in the table, bar their absolute times (each run starts at its own time).
    @Test func theSameRowsAtEveryClockAndBatchSize() throws {
        let server = try Self.server()
        var tables: [String: [String]] = [:]
        for (clock, batch) in [("virtual", 4096), ("virtual", 1), ("virtual", 7), ("replay", 7), ("replay", 4096)] {
            let table = "run_\(clock)_\(batch)"
            let yaml = """
                name: pg-clocks
                clock: \(clock)
                speed: 200
                steps: [{path: rest, at: 0}, {path: walk, at: 3.3}]
                sources: {gen: {type: generator, signal: noise, rate: 100, count: 1000}}
                sinks:
                  db: {type: postgres, inputs: [gen], url: "\(server.socketURL())", password_env: DAQ_TEST_PG_PASSWORD, table: \(table), flush_rows: 100}
                """
            let outcome = try PipelineHarness.run(
                yaml: yaml, plugins: Self.plugins, options: RunOptions(batchSize: batch, flushInterval: 0))
            try #require(outcome.result.state == .finished, "\(clock), batches of \(batch)")
            tables[table] = try Self.rows(server, table: table).map { r in
                var r = r
                r["time"] = nil
                return "\(r.sorted { $0.key < $1.key })"
            }
        }
        let reference = try #require(tables["run_virtual_4096"])
        #expect(reference.count == 1000 + 3, "1000 samples, start, step and stop markers")
        for (table, rows) in tables { #expect(rows == reference, "\(table)") }
    }

    /// A field that first appears mid-run adds its column, typed by the new descriptor; the
    /// rows before it have none. The sink is driven on its stage's queue as the engine would.
    @Test func aFieldMetMidRunAddsItsColumn() throws {
        let server = try Self.server()
        let context = StageContext.detached(name: "db", kind: .sink, clock: RunClock(mode: .virtual))
        let config = try PluginConfigLoader.decode(
            PostgresSink.Configuration.self,
            yaml: "url: \"\(server.socketURL())\"\npassword_env: DAQ_TEST_PG_PASSWORD\ntable: widened\nflush_rows: 10")
        let sink = try PostgresSink(
            configuration: config,
            context: PluginContext(componentName: "db", pipelineName: "detached", baseDirectory: "", clock: .virtual))
        try context.onStageQueue { try sink.start(context: context) }
        try context.awaitStart()
        let narrow = StreamDescriptor(fields: [FieldDescriptor("x", .double)])
        let wide = StreamDescriptor(fields: [FieldDescriptor("x", .double), FieldDescriptor("tag", .string)])
        func sample(_ i: Int, tag: Bool) -> Sample {
            Sample(
                timestamp: 1_700_000_000 + Double(i), uptime: Double(i),
                fields: tag ? ["x": .double(Double(i)), "tag": .string("t\(i)")] : ["x": .double(Double(i))])
        }
        try context.onStageQueue {
            try sink.write(batch("s", (0..<25).map { sample($0, tag: false) }, descriptor: narrow), context: context)
            try sink.write(batch("s", (25..<50).map { sample($0, tag: true) }, descriptor: wide), context: context)
            try sink.flush(context: context)
            try sink.finish(context: context)
        }
        try context.awaitEnd()
        #expect(try server.query("SELECT count(*), count(x), count(tag), min(tag) FROM widened") == "50|50|25|t25")
        #expect(
            try server.query(
                "SELECT data_type FROM information_schema.columns WHERE table_name = 'widened' AND column_name = 'tag'")
                == "text")
        // Each flush once: 10 + 10 + 5 rows before the field, then 10 + 10 + 5 with it.
        #expect(try server.query("SELECT count(*), sum(rows) FROM daq_flushes") == "6|50")
    }

    /// A TimescaleDB-less server (Debian's own): the sink finds no extension and leaves a plain table.
    @Test func noHypertableWithoutTimescaleDB() throws {
        let server = try Self.server()
        let yaml = """
            name: pg-plain
            clock: virtual
            sources: {gen: {type: generator, rate: 100, count: 10}}
            sinks:
              db: {type: postgres, inputs: [gen], url: "\(server.tcpURL())", password_env: DAQ_TEST_PG_PASSWORD}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: Self.plugins)
        #expect(outcome.result.state == .finished, "\(outcome.result.failureLine ?? "")")
        #expect(try server.query("SELECT count(*) FROM pg_plain_db WHERE kind = 'data'") == "10")
        #expect(try server.query("SELECT count(*) FROM pg_extension WHERE extname = 'timescaledb'") == "0")
        // The columns come from the descriptor: the generator's seq is bigint, value double.
        let types = try server.query(
            "SELECT column_name || ' ' || data_type FROM information_schema.columns WHERE table_name = 'pg_plain_db' ORDER BY ordinal_position"
        )
        #expect(
            types.split(separator: "\n") == [
                "time timestamp with time zone", "uptime double precision", "step text", "kind text", "marker text",
                "stream text", "seq bigint", "value double precision",
            ])
    }
}
