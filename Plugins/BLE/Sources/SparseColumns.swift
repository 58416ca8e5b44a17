import DAQCore

/// Numeric columns that some rows of a batch lack, stored sparse (`[Int64?]`, `[Double?]`).
///
/// In a capture where iBeacon, Ruuvi and Eddystone reports alternate, most beacon columns
/// lack most rows. Sparse numbers cost nothing per element to free; boxed values with nulls
/// in the gaps cost a destructor call per element, in the stage that frees the batch. A column
/// of absent rows, cut to length, is given the values one by one (for the rows that have one,
/// not for the gaps); the rows left without one are absent, so JSON outputs leave them out.
struct SparseColumns {
    private var ints: Column?
    private var doubles: Column?

    /// A column of `count` rows, absent but where `fill` sets a value (row, value).
    mutating func ints(_ name: String, count: Int, _ fill: ((Int, Int64) -> Void) -> Void) -> Column {
        if (ints?.count ?? 0) < count { ints = Column(name: "n", absentInts: count) }
        var c = ints!.slice(0..<count)
        c.name = name
        fill { row, v in c.set(.int(v), at: row) }
        return c
    }

    mutating func doubles(_ name: String, count: Int, _ fill: ((Int, Double) -> Void) -> Void) -> Column {
        if (doubles?.count ?? 0) < count { doubles = Column(name: "n", absentDoubles: count) }
        var c = doubles!.slice(0..<count)
        c.name = name
        fill { row, v in c.set(.double(v), at: row) }
        return c
    }
}
