/// Fills a batch row by row, field by field, for sources that decode many fields per sample.
///
/// Unlike ``Batch/append(_:)``, a row's missing fields are not padded with nulls when the row
/// ends but when the column is next written or in ``finish()``: with captures whose samples
/// differ in shape (iBeacon, Ruuvi and Eddystone reports side by side) padding every column
/// after every row cost more than the decoding. For the same reason values stay unboxed until
/// ``finish()`` even in columns that some rows lack (``ColumnBuffer``), and a field's column is
/// found by first trying the columns that followed the previous field before
/// (``ColumnSuccessors``) rather than by comparing names with every column.
public struct BatchBuilder {
    private var batch: Batch
    private var columns: [ColumnBuffer] = []
    private var successors = ColumnSuccessors()
    /// Room reserved in each new column: the length of the batches so far.
    private var capacity: Int

    public init(stream: String = "", capacity: Int = 0) {
        batch = Batch(stream: stream, capacity: capacity)
        self.capacity = capacity
    }

    /// The rows so far.
    public var count: Int { batch.count }

    /// One row being filled; the builder's columns are moved in for the fill and back after.
    ///
    /// The typed setters (``set(_:int:)`` and its siblings) keep values unboxed; the
    /// subscript takes any ``Value``.
    public struct Row: FieldWriter {
        @usableFromInline var columns: [ColumnBuffer]
        @usableFromInline var successors: ColumnSuccessors
        @usableFromInline let row: Int
        @usableFromInline let capacity: Int
        /// The column written last in this row, -1 before the first.
        @usableFromInline var previous = -1

        @usableFromInline
        init(columns: [ColumnBuffer], successors: ColumnSuccessors, row: Int, capacity: Int) {
            self.columns = columns
            self.successors = successors
            self.row = row
            self.capacity = capacity
        }

        public subscript(key: String) -> Value? {
            get {
                guard let i = columns.firstIndex(where: { $0.name == key }) else { return nil }
                return columns[i].value(at: row)
            }
            set {
                // Setting `nil` leaves the column null for this row: columns cannot lose a row.
                let i = column(key)
                columns[i].put(newValue ?? .null, row: row)
            }
        }

        /// Writes an integer field, unboxed.
        @inlinable
        public mutating func set(_ key: String, int value: Int64) {
            let i = column(key)
            columns[i].put(int: value, row: row)
        }

        /// Writes a double field, unboxed.
        @inlinable
        public mutating func set(_ key: String, double value: Double) {
            let i = column(key)
            columns[i].put(double: value, row: row)
        }

        /// Writes a string field, unboxed.
        @inlinable
        public mutating func set(_ key: String, string value: String) {
            let i = column(key)
            columns[i].put(string: value, row: row)
        }

        /// The index of column `key`, added when missing: first the columns that followed
        /// the previous one before, then a search by name.
        @inlinable
        mutating func column(_ key: String) -> Int {
            var i = successors.guess(after: previous, key, in: columns)
            if i < 0 {
                i = find(key)
                successors.learn(i, after: previous)
            }
            previous = i
            return i
        }

        @usableFromInline
        mutating func find(_ key: String) -> Int {
            let length = key.utf8.count
            // Lengths first: most names differ in length, and comparing them costs nothing.
            if let i = columns.firstIndex(where: { $0.name.utf8.count == length && $0.name == key }) { return i }
            columns.append(ColumnBuffer(name: key, capacity: capacity))
            return columns.count - 1
        }
    }

    /// Appends a sample whose fields `fill` writes one by one; fields it does not write are null.
    public mutating func appendRow<R>(
        uptime: Double, timestamp: Double, stepPath: String = "", kind: SampleKind = .data,
        fill: (inout Row) throws -> R
    ) rethrows -> R {
        let index = batch.appendRow(uptime: uptime, timestamp: timestamp, stepPath: stepPath, kind: kind)
        var row = Row(columns: [], successors: ColumnSuccessors(), row: index, capacity: capacity)
        swap(&columns, &row.columns)
        swap(&successors, &row.successors)
        defer {
            swap(&columns, &row.columns)
            swap(&successors, &row.successors)
        }
        return try fill(&row)
    }

    /// The rows so far as a batch with every column complete; the builder starts over empty.
    public mutating func finish() -> Batch {
        // The next batch will likely be as long as this one.
        capacity = Swift.max(capacity, batch.count)
        var out = Batch(stream: batch.stream, capacity: capacity)
        swap(&out, &batch)
        out.columns = columns.map { $0.column(rows: out.count) }
        columns = []
        // Column indices start over with the new batch.
        successors = ColumnSuccessors()
        return out
    }
}
