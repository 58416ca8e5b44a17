import DAQCore
import NIOCore

/// The rows of the flush being filled: encoded as they are written, sealed into a numbered
/// ``PostgresFlush`` by the sink's `flush`, when it reaches its row limit, or when a new field
/// widens the table.
///
/// # Thread safety
/// A value confined to its sink's stage queue.
struct PostgresFlushBuilder {
    /// The table's columns as the sink writes them.
    private(set) var layout: PostgresTableLayout
    private let origin: PostgresFlushOrigin
    private var payload: ByteBuffer?
    private var added: [PostgresColumn] = []
    private(set) var rows = 0
    private var nextSequence: Int64 = 1

    init(layout: PostgresTableLayout, origin: PostgresFlushOrigin) { (self.layout, self.origin) = (layout, origin) }

    /// Replaces the layout with the server's view of it (types of existing columns).
    mutating func adopt(_ prepared: PostgresTableLayout) {
        precondition(rows == 0, "the layout changes only between flushes")
        layout = prepared
    }

    /// The fields of `batch` (by its descriptor, then its columns) the table has no column for.
    func newColumns(for batch: Batch) -> [PostgresColumn] {
        var wider = layout
        var result: [PostgresColumn] = []
        for f in batch.descriptor?.fields ?? [] {
            let c = PostgresColumn(name: f.name, type: .init(field: f.type))
            if wider.add(c) { result.append(c) }
        }
        for column in batch.columns {
            let c = PostgresColumn(name: column.name, type: .init(field: column.fieldType ?? .any))
            if wider.add(c) { result.append(c) }
        }
        return result
    }

    /// Widens the table by `columns`; the flush being filled must be sealed first.
    mutating func widen(_ columns: [PostgresColumn]) {
        precondition(rows == 0, "seal the open flush before widening")
        for c in columns where layout.add(c) { added.append(c) }
    }

    /// Encodes rows `range` of `batch`.
    mutating func append(_ batch: Batch, rows range: Range<Int>) {
        guard !range.isEmpty else { return }
        if payload == nil {
            var buffer = ByteBufferAllocator().buffer(capacity: 64 * 1024)
            PostgresCopyEncoder.appendHeader(to: &buffer)
            payload = buffer
        }
        let plan = layout.columns.dropFirst(PostgresTableLayout.fixed.count).map { batch.columnIndex($0.name) }
        PostgresCopyEncoder.append(batch, rows: range, columns: layout.columns, plan: plan, to: &payload!)
        rows += range.count
    }

    /// The rows so far as the next flush, or `nil` when there are none.
    mutating func seal() -> PostgresFlush? {
        guard var buffer = payload, rows > 0 else { return nil }
        PostgresCopyEncoder.appendTrailer(to: &buffer)
        let flush = PostgresFlush(
            origin: origin, sequence: nextSequence, rows: rows, columns: layout.columns, added: added, payload: buffer)
        nextSequence += 1
        payload = nil
        added = []
        rows = 0
        return flush
    }
}
