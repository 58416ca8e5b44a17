import DAQCore

/// Reports laid out as the columns of one batch while they are decoded.
///
/// The decoders write each field by its ``ReportField`` number; the field's column is looked
/// up in a table once per batch, not found by name for every report, and the value is stored
/// unboxed at the end of the column's buffers in a ``ColumnStore``. ``finish()`` lays the gaps
/// out once per batch. Columns come in the order their fields were first written, as with
/// any builder, so a batch's layout (and a log's) is what it was.
///
/// Copies share one store: keep one value, as a source's property or moved in and out of it.
struct ReportColumns {
    private var batch = Batch()
    private let store = ColumnStore()
    private var sparse = SparseColumns()
    /// Room reserved in the next batch: the length of the longest so far.
    private var capacity = 0

    /// The rows so far.
    var count: Int { batch.count }

    /// Appends a row whose fields `fill` writes; fields it does not write are null.
    @inline(__always)
    mutating func appendRow(uptime: Double, timestamp: Double, _ fill: (inout Row) -> Void) {
        let index = batch.appendRow(uptime: uptime, timestamp: timestamp)
        var row = Row(store: store, row: Int32(truncatingIfNeeded: index))
        fill(&row)
    }

    /// The rows so far as a batch; the builder starts over empty.
    mutating func finish() -> Batch {
        let rows = batch.count
        // The next batch will likely be as long as this one.
        capacity = Swift.max(capacity, rows)
        var out = Batch(capacity: capacity)
        swap(&out, &batch)
        let table = store.table
        for i in 0..<store.used { out.setColumn(table[i].take(rows: rows, sparse: &sparse)) }
        store.reset()
        return out
    }

    /// The row being filled.
    struct Row: ReportWriter {
        private let store: ColumnStore
        /// `store.table`, read once per row; refreshed when a new column moves the table.
        private var table: UnsafeMutablePointer<RawColumn>
        private let fixed: UnsafeMutablePointer<Int32>
        let row: Int32

        fileprivate init(store: ColumnStore, row: Int32) {
            self.store = store
            table = store.table
            fixed = store.fixed
            self.row = row
        }

        @inline(__always)
        private mutating func column(_ field: ReportField) -> UnsafeMutablePointer<RawColumn> {
            let c = fixed[field.rawValue]
            if c >= 0 { return table + Int(c) }
            return add(field)
        }

        private mutating func add(_ field: ReportField) -> UnsafeMutablePointer<RawColumn> {
            let c = store.add(field.name)
            fixed[field.rawValue] = c
            table = store.table
            return table + Int(c)
        }

        mutating func set(_ field: ReportField, int value: Int64) {
            let c = column(field)
            if !c.pointee.put(word: UInt64(bitPattern: value), .ints, row: row) { c.pointee.put(.int(value), row: row) }
        }

        mutating func set(_ field: ReportField, double value: Double) {
            let c = column(field)
            if !c.pointee.put(word: value.bitPattern, .doubles, row: row) { c.pointee.put(.double(value), row: row) }
        }

        mutating func set(_ field: ReportField, string value: String) {
            let c = column(field)
            if !c.pointee.put(string: value, row: row) { c.pointee.put(.string(value), row: row) }
        }

        mutating func set(_ field: ReportField, _ value: Value) {
            column(field).pointee.put(value, row: row)
        }

        mutating func set(named name: String, _ value: Value) {
            let c: Int32
            if let known = store.named[name] {
                c = known
            } else {
                c = store.add(name)
                store.named[name] = c
                table = store.table
            }
            table[Int(c)].put(value, row: row)
        }

        func has(_ field: ReportField) -> Bool {
            let c = fixed[field.rawValue]
            return c >= 0 && table[Int(c)].has(row: row)
        }
    }
}
