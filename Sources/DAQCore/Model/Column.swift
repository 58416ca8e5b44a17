/// One named field across every sample of a batch.
///
/// Numeric and text columns keep their values unboxed (`[Double]`, `[Int64]`, `[String]`), so a
/// transform that reads `x`, `y`, `z` walks plain arrays and a batch of a thousand samples costs a
/// handful of allocations, not thousands. A column falls back to boxed `Value`s the first time it
/// is given a value of another type (or a null); readers see the same values either way.
public struct Column: Sendable {
    /// How the values are stored.
    public enum Storage: Sendable {
        case doubles([Double])
        case ints([Int64])
        /// Strings, every value present; ``BatchBuilder`` makes these for text fields decoded
        /// per sample (addresses, hex payloads).
        case strings([String])
        /// Integers some samples lack (`nil` reads as `null`); ``BatchBuilder`` makes these
        /// for fields only some kinds of sample carry (the beacon fields of a mixed capture).
        case sparseInts([Int64?])
        /// Doubles some samples lack (`nil` reads as `null`).
        case sparseDoubles([Double?])
        /// Booleans, every value present: flags a transform sets on every sample (`nonwear`).
        case bools([Bool])
        case values([Value])
    }

    /// The field name.
    public var name: String
    /// The values, one per sample of the batch.
    public private(set) var storage: Storage
    /// Rows whose sample never had this field, as opposed to a `null` it carried: a field
    /// another sample of the batch introduced reads as `null` there, but a JSON writer leaves
    /// it out. `nil` when every row has the field. Sparse storages mark absent rows with `nil`
    /// instead, and never carry this mask.
    public private(set) var absent: [Bool]?

    /// Creates a column from boxed values, unboxing when they are all doubles, all ints or all
    /// booleans.
    public init(name: String, values: [Value]) {
        self.name = name
        if values.allSatisfy({ if case .double = $0 { return true } else { return false } }) && !values.isEmpty {
            storage = .doubles(values.map { $0.doubleValue! })
        } else if values.allSatisfy({ if case .int = $0 { return true } else { return false } }) && !values.isEmpty {
            storage = .ints(values.map { $0.intValue! })
        } else if values.allSatisfy({ if case .bool = $0 { return true } else { return false } }) && !values.isEmpty {
            storage = .bools(values.map { if case .bool(let b) = $0 { return b } else { return false } })
        } else {
            storage = .values(values)
        }
    }

    /// Creates a column of doubles.
    public init(name: String, doubles: [Double]) {
        self.name = name
        storage = .doubles(doubles)
    }

    /// Creates a column of integers.
    public init(name: String, ints: [Int64]) {
        self.name = name
        storage = .ints(ints)
    }

    /// Creates a column of strings.
    public init(name: String, strings: [String]) {
        self.name = name
        storage = .strings(strings)
    }

    /// Creates a column of booleans.
    public init(name: String, bools: [Bool]) {
        self.name = name
        storage = .bools(bools)
    }

    /// Creates a column with `storage` as it is, for a builder that chose it.
    init(name: String, storage: Storage) {
        self.name = name
        self.storage = storage
    }

    /// Creates a column holding `count` nulls that samples carried as such.
    public init(name: String, nulls count: Int) {
        self.name = name
        storage = .values(Array(repeating: .null, count: count))
    }

    /// Creates a column `count` rows long that no sample has yet: a field first met mid-batch.
    public init(name: String, absent count: Int) {
        self.name = name
        storage = .values(Array(repeating: .null, count: count))
        absent = count > 0 ? Array(repeating: true, count: count) : nil
    }

    /// Creates a column of `count` absent rows stored sparse for integers: the rows given a value
    /// later hold it unboxed, the rest cost nothing to free.
    public init(name: String, absentInts count: Int) {
        self.name = name
        storage = .sparseInts(Array(repeating: nil, count: count))
    }

    /// Creates a column of `count` absent rows stored sparse for doubles (see ``init(name:absentInts:)``).
    public init(name: String, absentDoubles count: Int) {
        self.name = name
        storage = .sparseDoubles(Array(repeating: nil, count: count))
    }

    /// Creates a column of boxed `values` in which the rows flagged in `absent` never had the field
    /// (their value, normally `.null`, is what a reader sees).
    public init(name: String, values: [Value], absent: [Bool]) {
        precondition(
            values.count == absent.count, "column \(name): \(values.count) values, \(absent.count) absence flags")
        self.init(name: name, values: values)
        if absent.contains(true) {
            if case .values = storage {} else { storage = .values(values) }
            self.absent = absent
        }
    }

    /// Whether sample `row` never had this field (see ``absent``).
    @inlinable
    public func isAbsent(_ row: Int) -> Bool {
        if let absent { return absent[row] }
        switch storage {
        case .sparseInts(let a): return a[row] == nil
        case .sparseDoubles(let a): return a[row] == nil
        default: return false
        }
    }

    /// Whether some row never had this field.
    public var hasAbsentRows: Bool {
        if let absent { return absent.contains(true) }
        switch storage {
        case .sparseInts(let a): return a.contains(nil)
        case .sparseDoubles(let a): return a.contains(nil)
        default: return false
        }
    }

    /// Appends a row that does not have the field: a sample that lacks it.
    public mutating func appendAbsent() {
        switch storage {
        case .sparseInts(var a):
            storage = .values([])
            a.append(nil)
            storage = .sparseInts(a)
        case .sparseDoubles(var a):
            storage = .values([])
            a.append(nil)
            storage = .sparseDoubles(a)
        default:
            var flags = absent ?? Array(repeating: false, count: count)
            absent = nil
            append(.null)
            flags.append(true)
            absent = flags
        }
    }

    /// Each row's absence, as flags, whatever the storage; `nil` when no row is absent.
    private var absenceFlags: [Bool]? {
        if let absent { return absent }
        switch storage {
        case .sparseInts(let a): return a.contains(nil) ? a.map { $0 == nil } : nil
        case .sparseDoubles(let a): return a.contains(nil) ? a.map { $0 == nil } : nil
        default: return nil
        }
    }

    /// The number of values.
    @inlinable
    public var count: Int {
        switch storage {
        case .doubles(let a): return a.count
        case .ints(let a): return a.count
        case .strings(let a): return a.count
        case .sparseInts(let a): return a.count
        case .sparseDoubles(let a): return a.count
        case .bools(let a): return a.count
        case .values(let a): return a.count
        }
    }

    /// The value of sample `index`.
    @inlinable
    public subscript(index: Int) -> Value {
        switch storage {
        case .doubles(let a): return .double(a[index])
        case .ints(let a): return .int(a[index])
        case .strings(let a): return .string(a[index])
        case .sparseInts(let a): return a[index].map { .int($0) } ?? .null
        case .sparseDoubles(let a): return a[index].map { .double($0) } ?? .null
        case .bools(let a): return .bool(a[index])
        case .values(let a): return a[index]
        }
    }

    /// The value of sample `index` as a double, without boxing, or `nil` when not numeric.
    @inlinable
    public func double(at index: Int) -> Double? {
        switch storage {
        case .doubles(let a): return a[index]
        case .ints(let a): return Double(a[index])
        case .strings, .bools: return nil
        case .sparseInts(let a): return a[index].map { Double($0) }
        case .sparseDoubles(let a): return a[index]
        case .values(let a): return a[index].doubleValue
        }
    }

    /// The unboxed doubles, when the column holds only doubles.
    public var doubles: [Double]? {
        if case .doubles(let a) = storage { return a }
        return nil
    }

    /// The unboxed doubles, when the column holds only doubles and every row has one: what a
    /// hot loop can read with no per-row check.
    public var plainDoubles: [Double]? {
        absent == nil ? doubles : nil
    }

    /// The unboxed booleans, when the column holds only booleans and every row has one.
    public var plainBools: [Bool]? {
        if absent == nil, case .bools(let a) = storage { return a }
        return nil
    }

    /// Appends one value, keeping unboxed storage while the types allow it.
    ///
    /// Switches on `storage` alone and empties it before appending: matching a tuple of
    /// storage and value kept a second reference alive, so every append copied the column.
    public mutating func append(_ value: Value) {
        switch storage {
        case .doubles(var a):
            if case .double(let d) = value {
                storage = .values([])
                a.append(d)
                storage = .doubles(a)
                return
            }
        case .ints(var a):
            if case .int(let i) = value {
                storage = .values([])
                a.append(i)
                storage = .ints(a)
                return
            }
        case .strings(var a):
            if case .string(let s) = value {
                storage = .values([])
                a.append(s)
                storage = .strings(a)
                return
            }
        case .bools(var a):
            if case .bool(let b) = value {
                storage = .values([])
                a.append(b)
                storage = .bools(a)
                return
            }
        case .sparseInts(var a):
            if let v = Self.unbox(
                value,
                {
                    if case .int(let i) = $0 { return i }
                    return nil
                })
            {
                storage = .values([])
                a.append(v)
                storage = .sparseInts(a)
                return
            }
        case .sparseDoubles(var a):
            if let v = Self.unbox(
                value,
                {
                    if case .double(let d) = $0 { return d }
                    return nil
                })
            {
                storage = .values([])
                a.append(v)
                storage = .sparseDoubles(a)
                return
            }
        case .values(var a):
            if a.isEmpty, absent == nil, case .double(let d) = value {
                storage = .doubles([d])
                return
            }
            if a.isEmpty, absent == nil, case .int(let i) = value {
                storage = .ints([i])
                return
            }
            if a.isEmpty, absent == nil, case .bool(let b) = value {
                storage = .bools([b])
                return
            }
            storage = .values([])
            a.append(value)
            storage = .values(a)
            absent?.append(false)
            return
        }
        let flags = absenceFlags
        var boxed = boxedValues
        storage = .values([])
        boxed.append(value)
        storage = .values(boxed)
        if var flags {
            flags.append(false)
            absent = flags
        } else if absent != nil {
            absent!.append(false)
        }
    }

    /// Appends a double without boxing when the column holds doubles.
    public mutating func append(double d: Double) {
        if case .doubles(var a) = storage {
            storage = .values([])
            a.append(d)
            storage = .doubles(a)
        } else {
            append(.double(d))
        }
    }

    /// Replaces the value of sample `index`.
    public mutating func set(_ value: Value, at index: Int) {
        switch storage {
        case .doubles(var a):
            if case .double(let d) = value {
                storage = .values([])
                a[index] = d
                storage = .doubles(a)
                return
            }
        case .ints(var a):
            if case .int(let i) = value {
                storage = .values([])
                a[index] = i
                storage = .ints(a)
                return
            }
        case .strings(var a):
            if case .string(let s) = value {
                storage = .values([])
                a[index] = s
                storage = .strings(a)
                return
            }
        case .bools(var a):
            if case .bool(let b) = value {
                storage = .values([])
                a[index] = b
                storage = .bools(a)
                return
            }
        case .sparseInts(var a):
            if let v = Self.unbox(
                value,
                {
                    if case .int(let i) = $0 { return i }
                    return nil
                })
            {
                storage = .values([])
                a[index] = v
                storage = .sparseInts(a)
                return
            }
        case .sparseDoubles(var a):
            if let v = Self.unbox(
                value,
                {
                    if case .double(let d) = $0 { return d }
                    return nil
                })
            {
                storage = .values([])
                a[index] = v
                storage = .sparseDoubles(a)
                return
            }
        case .values(var a):
            storage = .values([])
            a[index] = value
            storage = .values(a)
            absent?[index] = false
            return
        }
        let flags = absenceFlags
        var boxed = boxedValues
        storage = .values([])
        boxed[index] = value
        storage = .values(boxed)
        if var flags {
            flags[index] = false
            absent = flags
        }
    }

    /// Every value boxed, in order.
    public var boxedValues: [Value] {
        switch storage {
        case .doubles(let a): return a.map { .double($0) }
        case .ints(let a): return a.map { .int($0) }
        case .strings(let a): return a.map { .string($0) }
        case .sparseInts(let a): return a.map { $0.map { .int($0) } ?? .null }
        case .sparseDoubles(let a): return a.map { $0.map { .double($0) } ?? .null }
        case .bools(let a): return a.map { .bool($0) }
        case .values(let a): return a
        }
    }

    /// Keeps the values whose `keep` flag is set.
    public func filtered(_ keep: [Bool], kept: Int) -> Column {
        var copy = self
        switch storage {
        case .doubles(let a): copy.storage = .doubles(Column.select(a, keep, kept))
        case .ints(let a): copy.storage = .ints(Column.select(a, keep, kept))
        case .strings(let a): copy.storage = .strings(Column.select(a, keep, kept))
        case .sparseInts(let a): copy.storage = .sparseInts(Column.select(a, keep, kept))
        case .sparseDoubles(let a): copy.storage = .sparseDoubles(Column.select(a, keep, kept))
        case .bools(let a): copy.storage = .bools(Column.select(a, keep, kept))
        case .values(let a): copy.storage = .values(Column.select(a, keep, kept))
        }
        if let absent { copy.absent = Column.select(absent, keep, kept) }
        return copy
    }

    /// The values in `range`.
    public func slice(_ range: Range<Int>) -> Column {
        var copy = self
        switch storage {
        case .doubles(let a): copy.storage = .doubles(Array(a[range]))
        case .ints(let a): copy.storage = .ints(Array(a[range]))
        case .strings(let a): copy.storage = .strings(Array(a[range]))
        case .sparseInts(let a): copy.storage = .sparseInts(Array(a[range]))
        case .sparseDoubles(let a): copy.storage = .sparseDoubles(Array(a[range]))
        case .bools(let a): copy.storage = .bools(Array(a[range]))
        case .values(let a): copy.storage = .values(Array(a[range]))
        }
        if let absent { copy.absent = Array(absent[range]) }
        return copy
    }

    /// Appends every value of `other` (same name assumed).
    public mutating func append(contentsOf other: Column) {
        if absent != nil || other.absent != nil {
            // Boxed, with the absence of both sides kept row for row.
            var flags = absenceFlags ?? Array(repeating: false, count: count)
            var boxed = boxedValues
            storage = .values([])
            absent = nil
            boxed.append(contentsOf: other.boxedValues)
            flags.append(contentsOf: other.absenceFlags ?? Array(repeating: false, count: other.count))
            storage = .values(boxed)
            absent = flags
            return
        }
        // One storage switched on at a time, each emptied before its array grows: a tuple of
        // both would keep a second reference alive, and every append would copy the column.
        switch storage {
        case .doubles(var a):
            if case .doubles(let b) = other.storage {
                storage = .values([])
                a.append(contentsOf: b)
                storage = .doubles(a)
                return
            }
        case .ints(var a):
            if case .ints(let b) = other.storage {
                storage = .values([])
                a.append(contentsOf: b)
                storage = .ints(a)
                return
            }
        case .strings(var a):
            if case .strings(let b) = other.storage {
                storage = .values([])
                a.append(contentsOf: b)
                storage = .strings(a)
                return
            }
        case .sparseInts(var a):
            if case .sparseInts(let b) = other.storage {
                storage = .values([])
                a.append(contentsOf: b)
                storage = .sparseInts(a)
                return
            }
        case .sparseDoubles(var a):
            if case .sparseDoubles(let b) = other.storage {
                storage = .values([])
                a.append(contentsOf: b)
                storage = .sparseDoubles(a)
                return
            }
        case .bools(var a):
            if case .bools(let b) = other.storage {
                storage = .values([])
                a.append(contentsOf: b)
                storage = .bools(a)
                return
            }
        case .values(var a):
            if case .values(let b) = other.storage {
                storage = .values([])
                a.append(contentsOf: b)
                storage = .values(a)
                return
            }
        }
        mixed(other)
    }

    /// Appends `other`, whose storage is of another kind: boxed, unless this column is empty.
    private mutating func mixed(_ other: Column) {
        if count == 0 {
            storage = other.storage
            return
        }
        let flags: [Bool]? =
            absenceFlags != nil || other.absenceFlags != nil
            ? (absenceFlags ?? Array(repeating: false, count: count))
                + (other.absenceFlags ?? Array(repeating: false, count: other.count)) : nil
        var boxed = boxedValues
        storage = .values([])
        boxed.append(contentsOf: other.boxedValues)
        storage = .values(boxed)
        absent = flags
    }

    /// `value` as an element of a sparse column: `.some(x)` for a value `payload` extracts,
    /// `nil` for a value of another type or a null, which a sparse column cannot hold apart
    /// from an absent row, so it is boxed.
    private static func unbox<T>(_ value: Value, _ payload: (Value) -> T?) -> T?? {
        payload(value).map { .some($0) }
    }

    private static func select<T>(_ a: [T], _ keep: [Bool], _ kept: Int) -> [T] {
        var out = [T]()
        out.reserveCapacity(kept)
        for i in a.indices where keep[i] { out.append(a[i]) }
        return out
    }
}

extension Column.Storage {
    /// An empty storage of the same kind with room for `capacity` values, to append to.
    func emptied(reserving capacity: Int) -> Column.Storage {
        func room<T>(_: [T].Type) -> [T] {
            var a = [T]()
            a.reserveCapacity(capacity)
            return a
        }
        switch self {
        case .doubles: return .doubles(room([Double].self))
        case .ints: return .ints(room([Int64].self))
        case .strings: return .strings(room([String].self))
        case .sparseInts: return .sparseInts(room([Int64?].self))
        case .sparseDoubles: return .sparseDoubles(room([Double?].self))
        case .bools: return .bools(room([Bool].self))
        case .values: return .values(room([Value].self))
        }
    }
}
