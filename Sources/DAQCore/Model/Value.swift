/// One field value of a sample.
///
/// The cases mirror what JSON, CSV and binary captures carry, plus `bytes` so raw payloads
/// (a BLE advertisement, a scanner's raw read) survive without a lossy text round trip.
public enum Value: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case bytes([UInt8])
    case array([Value])
    case object(Fields)

    /// The value as a double when it is numeric (an `int` widens), else `nil`.
    @inlinable
    public var doubleValue: Double? {
        switch self {
        case .double(let d): return d
        case .int(let i): return Double(i)
        default: return nil
        }
    }

    /// The value as an integer when it is an `int` or a double with no fractional part.
    @inlinable
    public var intValue: Int64? {
        switch self {
        case .int(let i): return i
        case .double(let d):
            guard d.rounded() == d, let i = Int64(exactly: d) else { return nil }
            return i
        default: return nil
        }
    }

    /// The string payload, when the value is a string.
    @inlinable
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The boolean payload, when the value is a bool.
    @inlinable
    public var boolValue: Bool? {
        if case .bool(let b) = self { return b }
        return nil
    }

    /// Whether the value is `null`.
    @inlinable
    public var isNull: Bool {
        if case .null = self { return true }
        return false
    }

    /// The name users see in messages and in `daq plugins describe`.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        case .bytes: return "bytes"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension Value: ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral, ExpressibleByStringLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
{
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(nilLiteral: ()) { self = .null }
}

/// Ordered key → value pairs: the fields of a sample, or a JSON object.
///
/// Order is kept because loggers write columns in the order a source produced them.
public struct Fields: Sendable, Hashable, ExpressibleByDictionaryLiteral {
    public private(set) var keys: [String]
    public private(set) var values: [Value]

    /// Creates an empty field set.
    public init() {
        keys = []
        values = []
    }

    /// Creates fields from pairs; a later pair with the same key replaces an earlier one.
    public init(_ pairs: [(String, Value)]) {
        self.init()
        for (k, v) in pairs { self[k] = v }
    }

    public init(dictionaryLiteral elements: (String, Value)...) {
        self.init(elements)
    }

    /// The number of fields.
    public var count: Int { keys.count }

    /// The value for `key`, or `nil` when absent. Setting `nil` removes the key.
    public subscript(key: String) -> Value? {
        get {
            guard let i = keys.firstIndex(of: key) else { return nil }
            return values[i]
        }
        set {
            if let i = keys.firstIndex(of: key) {
                if let newValue {
                    values[i] = newValue
                } else {
                    keys.remove(at: i)
                    values.remove(at: i)
                }
            } else if let newValue {
                keys.append(key)
                values.append(newValue)
            }
        }
    }

    /// The pairs in order.
    public var pairs: Zip2Sequence<[String], [Value]> { zip(keys, values) }
}
