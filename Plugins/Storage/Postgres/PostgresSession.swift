import DAQCore
import Logging
import NIOCore
import NIOSSL
import PostgresNIO

/// One connection of a `postgres` sink and what it does on it: prepare the table, commit a
/// flush, close.
///
/// Each method is `async` because postgres-nio's `COPY` is; the sink runs them in a task and
/// takes the result back to its stage's queue (``StageContext/perform(_:)``), so no queue ever
/// waits for the server.
///
/// # Thread safety
/// `Sendable`: its stored properties are immutable, and postgres-nio's connection is safe to
/// use from any task, one statement at a time (the sink runs one operation at a time).
struct PostgresSession: Sendable {
    let link: PostgresLink
    let target: PostgresTarget
    /// The table ``prepare(_:hypertable:)`` makes ready; a flush names its own.
    let table: String

    /// The bookkeeping table: one row per committed flush, written in the flush's transaction.
    static let flushesTable = "daq_flushes"

    private static let logger = Logger(label: "daq.postgres") { _ in SwiftLogNoOpLogHandler() }

    var connection: PostgresConnection { link.connection }

    init(connection: PostgresLink, target: PostgresTarget, table: String) {
        (self.link, self.target, self.table) = (connection, target, table)
    }

    /// Connects and logs in.
    /// - Throws: ``PostgresSinkError`` naming the server and what it answered.
    static func connect(
        target: PostgresTarget, password: String?, connectTimeout: Double, id: Int
    ) async throws -> PostgresLink {
        var configuration: PostgresConnection.Configuration
        do {
            switch target.endpoint {
            case .unixSocket(let path):
                configuration = .init(
                    unixSocketPath: path, username: target.user, password: password, database: target.database)
            case .tcp(let host, let port):
                let tls: PostgresConnection.Configuration.TLS
                switch target.tls {
                case .disable: tls = .disable
                case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
                case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
                }
                configuration = .init(
                    host: host, port: port, username: target.user, password: password, database: target.database,
                    tls: tls)
            }
            configuration.options.connectTimeout = .nanoseconds(Int64(connectTimeout * 1e9))
            return PostgresLink(
                try await PostgresConnection.connect(configuration: configuration, id: id, logger: logger))
        } catch {
            throw PostgresSinkError(error, doing: "cannot connect to", target: target)
        }
    }

    /// Creates the table (from `layout`) and the bookkeeping table when missing, adds the
    /// columns of `layout` the table lacks, and makes the table a TimescaleDB hypertable when
    /// `hypertable` and the extension is installed in the database.
    /// - Returns: `layout` with the types the table's columns have on the server, and whether
    ///   the table is a hypertable.
    func prepare(_ layout: PostgresTableLayout, hypertable: Bool) async throws -> (PostgresTableLayout, Bool) {
        do {
            try await run(layout.createStatement(table: table))
            try await run(
                "CREATE TABLE IF NOT EXISTS \(PostgresSQL.identifier(Self.flushesTable)) (run_id text NOT NULL, "
                    + "component text NOT NULL, seq bigint NOT NULL, table_name text NOT NULL, rows bigint NOT NULL, "
                    + "committed_at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (run_id, component, seq))")
            var types = try await serverTypes()
            for column in layout.columns where types[column.name] == nil {
                try await addColumn(column, to: table)
                types[column.name] = column.type
            }
            var adopted = layout
            adopted.adopt(serverTypes: types)
            var isHypertable = false
            if hypertable, try await Self.timescaleInstalled(on: connection) {
                try await run(
                    "SELECT create_hypertable(\(PostgresSQL.literal(PostgresSQL.identifier(table))), 'time', "
                        + "if_not_exists => TRUE, migrate_data => TRUE)")
                isHypertable = true
            }
            return (adopted, isHypertable)
        } catch let e as PostgresSinkError {
            throw e
        } catch {
            throw PostgresSinkError(error, doing: "cannot prepare table \(table) on", target: target)
        }
    }

    /// Whether the TimescaleDB extension is installed in the connected database.
    static func timescaleInstalled(on connection: PostgresConnection) async throws -> Bool {
        let rows = try await connection.query(
            "SELECT extname FROM pg_extension WHERE extname = 'timescaledb'", logger: logger
        ).collect()
        return !rows.isEmpty
    }

    /// The server's type of every column of the table (`udt_name`); a type binary `COPY`
    /// cannot be sent in here is an error naming the column.
    private func serverTypes() async throws -> [String: PostgresColumnType] {
        let rows = try await connection.query(
            """
            SELECT column_name::text, udt_name::text FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = \(table)
            """, logger: Self.logger)
        var types: [String: PostgresColumnType] = [:]
        for try await (name, udt) in rows.decode((String, String).self) {
            types[name] = PostgresColumnType(rawValue: udt)
            if types[name] == nil && PostgresTableLayout.fixed.contains(where: { $0.name == name }) {
                throw PostgresSinkError(
                    "table \(table) on \(target.display) has column \(name) of type \(udt), which the sink cannot write"
                )
            }
        }
        return types
    }

    private func addColumn(_ column: PostgresColumn, to table: String) async throws {
        try await run(
            "ALTER TABLE \(PostgresSQL.identifier(table)) ADD COLUMN IF NOT EXISTS "
                + "\(PostgresSQL.identifier(column.name)) \(column.type.sqlName)")
    }

    /// Commits `flush` in one transaction: the bookkeeping row first (a conflict there means
    /// the flush went in before, and nothing is written), then the rows by binary `COPY`.
    /// - Throws: ``PostgresSinkError``; ``PostgresSinkError/isConnectionLoss`` tells whether
    ///   to send the flush again once the server is back.
    func commit(_ flush: PostgresFlush) async throws -> PostgresCommitOutcome {
        do {
            try await run("BEGIN")
            let (runID, component, table) = (flush.origin.runID, flush.origin.component, flush.origin.table)
            do {
                if table != self.table {
                    // An earlier run's flush for a table this run did not prepare.
                    var layout = PostgresTableLayout()
                    for column in flush.columns { layout.add(column) }
                    try await run(layout.createStatement(table: table))
                    for column in flush.columns { try await addColumn(column, to: table) }
                }
                for column in flush.added { try await addColumn(column, to: table) }
                let inserted = try await connection.query(
                    """
                    INSERT INTO daq_flushes (run_id, component, seq, table_name, rows)
                    VALUES (\(runID), \(component), \(flush.sequence), \(table), \(Int64(flush.rows)))
                    ON CONFLICT DO NOTHING RETURNING seq
                    """, logger: Self.logger
                ).collect()
                guard !inserted.isEmpty else {
                    try await run("ROLLBACK")
                    return .alreadyCommitted
                }
                try await connection.copyFrom(table: Self.binaryCopyTarget(table, flush.columns), logger: Self.logger) {
                    writer in
                    try await writer.write(flush.payload)
                }
                try await run("COMMIT")
                return .committed
            } catch {
                try? await run("ROLLBACK")
                throw error
            }
        } catch {
            throw PostgresSinkError(
                error, doing: "cannot write flush \(flush.sequence) to \(flush.origin.table) on", target: target)
        }
    }

    /// postgres-nio 1.33's `copyFrom` offers the text format only, and writes its statement as
    /// `COPY "<table>" FROM STDIN WITH (FORMAT text)`. The table it is given here closes the
    /// quoted name itself, names the columns, asks for the binary format and ends in a comment,
    /// which swallows the rest: `COPY "t" ("time", …) FROM STDIN WITH (FORMAT binary) --"…`.
    /// Every name is a quoted identifier, so no name can end the statement early.
    static func binaryCopyTarget(_ table: String, _ columns: [PostgresColumn]) -> String {
        let quoted = PostgresSQL.identifier(table)
        let names = columns.map { PostgresSQL.identifier($0.name) }.joined(separator: ", ")
        return String(quoted.dropFirst().dropLast()) + "\" (\(names)) FROM STDIN WITH (FORMAT binary) --"
    }

    /// Closes the connection; an error there changes nothing for the rows.
    func close() async {
        try? await connection.close()
    }

    private func run(_ sql: String) async throws {
        _ = try await connection.query(PostgresQuery(unsafeSQL: sql), logger: Self.logger).collect()
    }
}

/// A connection that is closed once nothing holds it any more, on whatever path it was dropped.
///
/// postgres-nio asserts (in debug builds) that a connection was closed before it is released. A
/// connection can be dropped unclosed where no code runs to close it: a result whose stage's
/// queue is gone (``StageContext/perform(_:)`` drops the closure when the run has ended), or a
/// test cancelled at its time limit; such a drop would end the whole process.
final class PostgresLink: Sendable {
    let connection: PostgresConnection

    init(_ connection: PostgresConnection) { self.connection = connection }

    deinit {
        guard !connection.isClosed else { return }
        // The task holds the connection until its channel has closed.
        Task { [connection] in try? await connection.close() }
    }
}
