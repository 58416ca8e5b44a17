/// One column while a ``BatchBuilder`` fills it: the rows that have a value, and their
/// values, unboxed (`[Int64]`, `[Double]`, `[String]`) while they are all of one type.
///
/// In a capture where iBeacon, Ruuvi and Eddystone reports alternate, most columns lack a
/// value in most rows. Padding each gap with a null as it appeared, and boxing every value
/// to make room for those nulls, cost more than decoding the reports; here a write appends a
/// row number and a value, and ``column(rows:)`` lays out the gaps once per batch, as a
/// sparse column of numbers (`[Int64?]`, `[Double?]`), which is also cheaper to free than
/// boxes.
///
/// Each type has its own stored array rather than a case of an enum: taking an array out of
/// an enum to append to it left a second reference behind often enough that every append
/// copied the whole array.
@usableFromInline
struct ColumnBuffer {
    @usableFromInline enum Kind { case empty, ints, doubles, strings, boxed }

    @usableFromInline let name: String
    /// Which of the arrays holds the values; the first value decides.
    @usableFromInline var kind = Kind.empty
    /// The rows that have a value, ascending; the k-th value belongs to `rows[k]`. `nil` while
    /// every row so far has one (the k-th value is row k's): most columns of most sources
    /// are never written to any other way, and then cost one array, not two.
    @usableFromInline var rows: [Int]?
    @usableFromInline var ints: [Int64] = []
    @usableFromInline var doubles: [Double] = []
    @usableFromInline var strings: [String] = []
    /// Values of mixed types, or with a null written on purpose.
    private var boxed: [Value] = []
    /// Room reserved for a new array: the builder's expected batch length.
    @usableFromInline let capacity: Int

    init(name: String, capacity: Int) {
        self.name = name
        self.capacity = capacity
    }

    /// The value of `row`, the last row, `nil` when it has none yet.
    func value(at row: Int) -> Value? {
        guard rows.map({ $0.last == row }) ?? (count == row + 1) else { return nil }
        switch kind {
        case .empty: return nil
        case .ints: return .int(ints[ints.count - 1])
        case .doubles: return .double(doubles[doubles.count - 1])
        case .strings: return .string(strings[strings.count - 1])
        case .boxed: return boxed[boxed.count - 1]
        }
    }

    /// How many values the column holds.
    private var count: Int {
        switch kind {
        case .empty: return 0
        case .ints: return ints.count
        case .doubles: return doubles.count
        case .strings: return strings.count
        case .boxed: return boxed.count
        }
    }

    /// Sets the value of `row`, the row being filled, replacing a value it has.
    @inlinable
    mutating func put(int v: Int64, row: Int) {
        if kind == .empty { start(.ints) }
        if kind == .ints {
            Self.put(v, row: row, &ints, &rows, capacity: capacity)
        } else {
            put(.int(v), row: row)
        }
    }

    @inlinable
    mutating func put(double v: Double, row: Int) {
        if kind == .empty { start(.doubles) }
        if kind == .doubles {
            Self.put(v, row: row, &doubles, &rows, capacity: capacity)
        } else {
            put(.double(v), row: row)
        }
    }

    @inlinable
    mutating func put(string v: String, row: Int) {
        if kind == .empty { start(.strings) }
        if kind == .strings {
            Self.put(v, row: row, &strings, &rows, capacity: capacity)
        } else {
            put(.string(v), row: row)
        }
    }

    @usableFromInline
    mutating func put(_ v: Value, row: Int) {
        switch v {
        case .int(let i) where kind == .ints || kind == .empty: return put(int: i, row: row)
        case .double(let d) where kind == .doubles || kind == .empty: return put(double: d, row: row)
        case .string(let s) where kind == .strings || kind == .empty: return put(string: s, row: row)
        default: break
        }
        if kind != .boxed {
            // Another type, or a null written on purpose: boxed from now on.
            boxed = boxedValues()
            ints = []
            doubles = []
            strings = []
            kind = .boxed
        }
        Self.put(v, row: row, &boxed, &rows, capacity: capacity)
    }

    /// The finished column, `count` rows long: unboxed when every row has a value, sparse
    /// (`nil` for a missing row) when the values are of one type, else boxed.
    func column(rows count: Int) -> Column {
        if rows == nil && self.count == count {
            switch kind {
            case .empty: return Column(name: name, absent: count)
            case .ints: return Column(name: name, ints: ints)
            case .doubles: return Column(name: name, doubles: doubles)
            case .strings: return Column(name: name, strings: strings)
            case .boxed: return Column(name: name, storage: .values(boxed))
            }
        }
        switch kind {
        case .empty: return Column(name: name, absent: count)
        case .ints: return Column(name: name, storage: .sparseInts(scatter(ints, count, gap: nil) { $0 }))
        case .doubles: return Column(name: name, storage: .sparseDoubles(scatter(doubles, count, gap: nil) { $0 }))
        // Boxed rather than `[String?]`: freeing an optional string goes through generic code
        // that cost three times as much as freeing a `Value`.
        case .strings:
            return Column(name: name, values: scatter(strings, count, gap: .null) { .string($0) }, absent: gaps(count))
        case .boxed: return Column(name: name, values: scatter(boxed, count, gap: .null) { $0 }, absent: gaps(count))
        }
    }

    /// `values` laid out at their rows in an array of `count`, `gap` elsewhere. Inlined, so
    /// each element type gets its own loop rather than one through type metadata.
    @inline(__always)
    private func scatter<T, U>(_ values: [T], _ count: Int, gap: U, _ wrap: (T) -> U) -> [U] {
        var out = [U](repeating: gap, count: count)
        if let rows {
            for (k, row) in rows.enumerated() { out[row] = wrap(values[k]) }
        } else {
            for (k, x) in values.enumerated() { out[k] = wrap(x) }
        }
        return out
    }

    /// Per row of `count`, whether no value was written to it.
    private func gaps(_ count: Int) -> [Bool] {
        var out = [Bool](repeating: true, count: count)
        if let rows {
            for row in rows { out[row] = false }
        } else {
            for k in 0..<Swift.min(self.count, count) { out[k] = false }
        }
        return out
    }

    /// The values so far boxed, one per entry of `rows`.
    private func boxedValues() -> [Value] {
        switch kind {
        case .empty: return []
        case .ints: return ints.map { .int($0) }
        case .doubles: return doubles.map { .double($0) }
        case .strings: return strings.map { .string($0) }
        case .boxed: return boxed
        }
    }

    @usableFromInline
    mutating func start(_ k: Kind) {
        kind = k
        switch k {
        case .ints: ints.reserveCapacity(capacity)
        case .doubles: doubles.reserveCapacity(capacity)
        case .strings: strings.reserveCapacity(capacity)
        case .empty, .boxed: break
        }
    }

    /// Replaces the value of `row` when it is the last one written, else appends it.
    @inlinable @inline(__always)
    static func put<T>(_ v: T, row: Int, _ a: inout [T], _ rows: inout [Int]?, capacity: Int) {
        if rows == nil {
            if a.count == row {
                a.append(v)
                return
            }
            if a.count == row + 1 {
                a[row] = v
                return
            }
            // The first row without a value: from here on rows are listed.
            var listed = Array(0..<a.count)
            listed.reserveCapacity(capacity)
            rows = listed
        }
        if rows!.last == row {
            a[a.count - 1] = v
        } else {
            rows!.append(row)
            a.append(v)
        }
    }
}
