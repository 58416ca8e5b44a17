import NIOCore

/// Rows sealed for one transaction: numbered, so that a flush committed once and sent again
/// (its COMMIT's answer was lost with the connection) is recognised and not written twice.
struct PostgresFlush: Sendable {
    /// The flush's number in the run, from 1.
    var sequence: Int64
    /// Rows in it, markers included (what `sent` counted).
    var rows: Int
    /// The columns every row has, in order.
    var columns: [PostgresColumn]
    /// Columns the table gets first (a field that appeared mid-run).
    var added: [PostgresColumn]
    /// The binary `COPY` data: header, rows, trailer.
    var payload: ByteBuffer
}

/// What committing a flush found.
enum PostgresCommitOutcome: Sendable, Equatable {
    /// Its rows went in now.
    case committed
    /// The bookkeeping table already had its run id and number: its rows went in before.
    case alreadyCommitted
}
