import DAQCore
import DAQTesting
import Foundation

extension ConformanceTable {
    static var storage: [Entry] {
        [
            Entry(.sink, "parquet") {
                ConformanceSpec(
                    config: "directory: ${CONFORMANCE_DIR}", drain: .consumed,
                    failure: FailureCase(config: "directory: /proc/daq-conformance", report: .refusedAtStart),
                    hugeCount: 250_000,
                    checkOutput: { outcome in
                        let written = Fixtures.parquetDataRows(in: outcome.directory)
                        return written == outcome.fed
                            ? nil : "the files hold \(written) data rows, \(outcome.fed) samples were fed"
                    })
            },
            postgresSink,
        ]
    }

    /// A real PostgreSQL server of the entry's own (``PostgresServer``), on a Unix socket.
    static let postgresSink = Entry.prepared(.sink, "postgres") {
        let server = try PostgresServer()
        try server.start()
        // The sink reads its password from the process's environment, as under `daq run`.
        setenv("DAQ_CONFORMANCE_PG_PASSWORD", server.password, 1)
        let refused = SilentServer.refusedPort()
        let spec = ConformanceSpec(
            config: "url: \"\(server.socketURL())\"\npassword_env: DAQ_CONFORMANCE_PG_PASSWORD\ndrain_timeout: 100",
            drain: .consumed,
            failure: FailureCase(
                config: "url: postgres://daq@127.0.0.1:\(refused)/db?sslmode=disable\nconnect_timeout: 0.2",
                report: .refusedAtStart),
            hugeCount: 200_000,
            checkOutput: { outcome in
                // Markers are rows too: every row sent was committed, and none failed.
                let s = outcome.subject
                return s.delivered == s.sent && s.failed == 0 && s.sent >= outcome.fed
                    ? nil : "sent \(s.sent), committed \(s.delivered), failed \(s.failed) of \(outcome.fed) fed"
            },
            reasons: [
                .neverBlocks:
                    "start() waits, by design, up to connect_timeout for the server to log the sink in and prepare its table, so an unreachable server fails the run's start rather than a running stage; committing after that is asynchronous on NIO"
            ])
        return Prepared(spec: spec, keepAlive: [server])
    }
}

extension Fixtures {
    /// Rows with `kind = 'data'` in every Parquet file under `directory`, as pyarrow reads them
    /// (installed by scripts/test.sh); -1 when pyarrow cannot read them.
    static func parquetDataRows(in directory: String) -> Int {
        let script = """
            import glob, sys, pyarrow.parquet as pq, pyarrow.compute as pc
            n = 0
            for f in glob.glob(sys.argv[1] + '/**/*.parquet', recursive=True):
                n += pc.sum(pc.equal(pq.read_table(f, columns=['kind'])['kind'], 'data')).as_py() or 0
            print(n)
            """
        guard let r = try? Process.runToEnd("python3", ["-c", script, directory], timeout: 300), r.status == 0 else {
            return -1
        }
        return Int(r.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }
}
