import DAQCore

/// Numeric columns that some rows of a batch lack, stored sparse (`[Int64?]`, `[Double?]`).
///
/// In a capture where iBeacon, Ruuvi and Eddystone reports alternate, most beacon columns
/// lack most rows. Sparse numbers cost nothing per element to free; boxed values with nulls
/// in the gaps cost a destructor call per element, in the stage that frees the batch. `Column`
/// makes sparse storage only through `BatchBuilder`, so a column of nils made by one, cut to
/// length, is given the values one by one (for the rows that have one, not for the gaps).
struct SparseColumns {
    private var ints: Column?
    private var doubles: Column?

    /// A column of `count` rows, null but where `fill` sets a value (row, value).
    mutating func ints(_ name: String, count: Int, _ fill: ((Int, Int64) -> Void) -> Void) -> Column {
        if (ints?.count ?? 0) < count { ints = Self.nils(count) { $0.set("n", int: 0) } }
        var c = ints!.slice(0..<count)
        c.name = name
        fill { row, v in c.set(.int(v), at: row) }
        return c
    }

    mutating func doubles(_ name: String, count: Int, _ fill: ((Int, Double) -> Void) -> Void) -> Column {
        if (doubles?.count ?? 0) < count { doubles = Self.nils(count) { $0.set("n", double: 0) } }
        var c = doubles!.slice(0..<count)
        c.name = name
        fill { row, v in c.set(.double(v), at: row) }
        return c
    }

    /// A sparse column of `count` (at least 2) nils, of the type `write` gives its first row.
    private static func nils(_ count: Int, _ write: (inout BatchBuilder.Row) -> Void) -> Column {
        var b = BatchBuilder()
        b.appendRow(uptime: 0, timestamp: 0, fill: write)
        for _ in 1..<Swift.max(count, 2) { b.appendRow(uptime: 0, timestamp: 0) { _ in } }
        var c = b.finish().columns[0]
        c.set(.null, at: 0)
        return c
    }
}
