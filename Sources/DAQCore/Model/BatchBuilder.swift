/// Fills a batch row by row, field by field, for sources that decode many fields per sample.
///
/// Unlike ``Batch/append(_:)``, a row's missing fields are not padded with nulls when the row
/// ends but when the column is next written or in ``finish()``: with captures whose samples
/// differ in shape (iBeacon, Ruuvi and Eddystone reports side by side) padding every column
/// after every row cost more than the decoding.
public struct BatchBuilder {
    private var batch: Batch

    public init(stream: String = "", capacity: Int = 0) {
        batch = Batch(stream: stream, capacity: capacity)
    }

    /// The rows so far.
    public var count: Int { batch.count }

    /// One row being filled; the builder's batch is moved in for the fill and back after.
    public struct Row: FieldWriter {
        fileprivate var batch: Batch
        fileprivate let row: Int

        public subscript(key: String) -> Value? {
            get {
                guard let i = batch.columnIndex(key), batch.columns[i].count == row + 1 else { return nil }
                return batch.columns[i][row]
            }
            set {
                // Setting `nil` leaves the column null for this row: columns cannot lose a row.
                let i = batch.ensureColumn(key)
                batch.columns[i].put(newValue ?? .null, row: row)
            }
        }
    }

    /// Appends a sample whose fields `fill` writes one by one; fields it does not write are null.
    public mutating func appendRow<R>(
        uptime: Double, timestamp: Double, stepPath: String = "", kind: SampleKind = .data,
        fill: (inout Row) throws -> R
    ) rethrows -> R {
        let index = batch.appendRow(uptime: uptime, timestamp: timestamp, stepPath: stepPath, kind: kind)
        var row = Row(batch: Batch(), row: index)
        swap(&batch, &row.batch)
        defer { swap(&batch, &row.batch) }
        return try fill(&row)
    }

    /// The rows so far as a batch with every column complete; the builder starts over empty.
    public mutating func finish() -> Batch {
        // The next batch will likely be as long as this one.
        var out = Batch(stream: batch.stream, capacity: batch.count)
        swap(&out, &batch)
        out.padColumns(to: out.count)
        return out
    }
}
