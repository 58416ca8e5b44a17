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
        case values([Value])
    }

    /// The field name.
    public var name: String
    /// The values, one per sample of the batch.
    public private(set) var storage: Storage

    /// Creates a column from boxed values, unboxing when they are all doubles or all ints.
    public init(name: String, values: [Value]) {
        self.name = name
        if values.allSatisfy({ if case .double = $0 { return true } else { return false } }) && !values.isEmpty {
            storage = .doubles(values.map { $0.doubleValue! })
        } else if values.allSatisfy({ if case .int = $0 { return true } else { return false } }) && !values.isEmpty {
            storage = .ints(values.map { $0.intValue! })
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

    /// Creates a column with `storage` as it is, for a builder that chose it.
    init(name: String, storage: Storage) {
        self.name = name
        self.storage = storage
    }

    /// Creates a column holding `count` nulls, used when a field first appears mid-batch.
    public init(name: String, nulls count: Int) {
        self.name = name
        storage = .values(Array(repeating: .null, count: count))
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
        case .values(let a): return a[index]
        }
    }

    /// The value of sample `index` as a double, without boxing, or `nil` when not numeric.
    @inlinable
    public func double(at index: Int) -> Double? {
        switch storage {
        case .doubles(let a): return a[index]
        case .ints(let a): return Double(a[index])
        case .strings: return nil
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
        case .sparseInts(var a):
            if let v = Self.unbox(value, { if case .int(let i) = $0 { return i }; return nil }) {
                storage = .values([])
                a.append(v)
                storage = .sparseInts(a)
                return
            }
        case .sparseDoubles(var a):
            if let v = Self.unbox(value, { if case .double(let d) = $0 { return d }; return nil }) {
                storage = .values([])
                a.append(v)
                storage = .sparseDoubles(a)
                return
            }
        case .values(var a):
            if a.isEmpty, case .double(let d) = value {
                storage = .doubles([d])
                return
            }
            if a.isEmpty, case .int(let i) = value {
                storage = .ints([i])
                return
            }
            storage = .values([])
            a.append(value)
            storage = .values(a)
            return
        }
        var boxed = boxedValues
        storage = .values([])
        boxed.append(value)
        storage = .values(boxed)
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
        case .sparseInts(var a):
            if let v = Self.unbox(value, { if case .int(let i) = $0 { return i }; return nil }) {
                storage = .values([])
                a[index] = v
                storage = .sparseInts(a)
                return
            }
        case .sparseDoubles(var a):
            if let v = Self.unbox(value, { if case .double(let d) = $0 { return d }; return nil }) {
                storage = .values([])
                a[index] = v
                storage = .sparseDoubles(a)
                return
            }
        case .values(var a):
            storage = .values([])
            a[index] = value
            storage = .values(a)
            return
        }
        var boxed = boxedValues
        storage = .values([])
        boxed[index] = value
        storage = .values(boxed)
    }

    /// Every value boxed, in order.
    public var boxedValues: [Value] {
        switch storage {
        case .doubles(let a): return a.map { .double($0) }
        case .ints(let a): return a.map { .int($0) }
        case .strings(let a): return a.map { .string($0) }
        case .sparseInts(let a): return a.map { $0.map { .int($0) } ?? .null }
        case .sparseDoubles(let a): return a.map { $0.map { .double($0) } ?? .null }
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
        case .values(let a): copy.storage = .values(Column.select(a, keep, kept))
        }
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
        case .values(let a): copy.storage = .values(Array(a[range]))
        }
        return copy
    }

    /// Appends every value of `other` (same name assumed).
    public mutating func append(contentsOf other: Column) {
        switch (storage, other.storage) {
        case (.doubles(var a), .doubles(let b)):
            storage = .values([])
            a.append(contentsOf: b)
            storage = .doubles(a)
        case (.ints(var a), .ints(let b)):
            storage = .values([])
            a.append(contentsOf: b)
            storage = .ints(a)
        case (.strings(var a), .strings(let b)):
            storage = .values([])
            a.append(contentsOf: b)
            storage = .strings(a)
        case (.sparseInts(var a), .sparseInts(let b)):
            storage = .values([])
            a.append(contentsOf: b)
            storage = .sparseInts(a)
        case (.sparseDoubles(var a), .sparseDoubles(let b)):
            storage = .values([])
            a.append(contentsOf: b)
            storage = .sparseDoubles(a)
        default:
            if count == 0 {
                storage = other.storage
            } else {
                var boxed = boxedValues
                storage = .values([])
                boxed.append(contentsOf: other.boxedValues)
                storage = .values(boxed)
            }
        }
    }

    /// `value` as an element of a sparse column: `.some(nil)` for a null, `.some(x)` for a
    /// value `payload` extracts, `nil` for a value of another type.
    private static func unbox<T>(_ value: Value, _ payload: (Value) -> T?) -> T?? {
        if case .null = value { return .some(nil) }
        return payload(value).map { .some($0) }
    }

    private static func select<T>(_ a: [T], _ keep: [Bool], _ kept: Int) -> [T] {
        var out = [T]()
        out.reserveCapacity(kept)
        for i in a.indices where keep[i] { out.append(a[i]) }
        return out
    }
}
