import NIOCore

/// Rows sealed for one transaction: numbered, so that a flush committed once and sent again
/// (its COMMIT's answer was lost with the connection) is recognised and not written twice.
struct PostgresFlush: Sendable {
    /// The run and component that sealed it, and its table: a flush a killed run left in the
    /// spool keeps them, so the next run commits it where it belongs and the bookkeeping row
    /// still recognises it.
    var origin: PostgresFlushOrigin
    /// The flush's number in its run, from 1.
    var sequence: Int64
    /// Rows in it, markers included (what `sent` counted).
    var rows: Int
    /// The columns every row has, in order.
    var columns: [PostgresColumn]
    /// Columns the table gets first (a field that appeared mid-run).
    var added: [PostgresColumn]
    /// The binary `COPY` data: header, rows, trailer.
    var payload: ByteBuffer
    /// Its number in the sink's spool, once written there.
    var spooled: UInt64?
}

/// Who sealed a flush and where it goes.
struct PostgresFlushOrigin: Sendable, Equatable {
    /// The run's id, as `daq_flushes.run_id` holds it.
    var runID: String
    /// The sink's component name.
    var component: String
    /// The table its rows go to.
    var table: String
}

/// What committing a flush found.
enum PostgresCommitOutcome: Sendable, Equatable {
    /// Its rows went in now.
    case committed
    /// The bookkeeping table already had its run id and number: its rows went in before.
    case alreadyCommitted
}
