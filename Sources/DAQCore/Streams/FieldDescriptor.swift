/// The type of a field's values, as a stream declares it before its first sample.
///
/// Every field may also be `null` on a sample (a window with no values, a marker's axes): a
/// type says what the value is when there is one, and sinks that need a schema (Parquet,
/// a database table, an LSL outlet) take it from here rather than from the first value seen.
public enum FieldType: String, Sendable, Hashable, CaseIterable, Codable {
    case double, int, bool, string, bytes, array, object
    /// Values of more than one type (a JSON Lines field that is sometimes a number, sometimes
    /// text); a sink stores them as text or as JSON.
    case any

    /// Whether `value` fits the type: `null` always does, and an `int` fits `double` (a CSV
    /// cell `3` in a column of `2.5`s).
    public func accepts(_ value: Value) -> Bool {
        switch (self, value) {
        case (_, .null), (.any, _): return true
        case (.double, .double), (.double, .int), (.int, .int), (.bool, .bool), (.string, .string),
            (.bytes, .bytes), (.array, .array), (.object, .object):
            return true
        default: return false
        }
    }

    /// The narrowest type holding values of both: `int` and `double` give `double`, any other
    /// two different types give `any`.
    public func widened(with other: FieldType) -> FieldType {
        if self == other { return self }
        if (self == .int && other == .double) || (self == .double && other == .int) { return .double }
        return .any
    }

    /// The type of `value`; `nil` for `null`, which says nothing about the field.
    public init?(of value: Value) {
        switch value {
        case .null: return nil
        case .bool: self = .bool
        case .int: self = .int
        case .double: self = .double
        case .string: self = .string
        case .bytes: self = .bytes
        case .array: self = .array
        case .object: self = .object
        }
    }
}

/// One field of a stream: its name, the type of its values, and what they measure.
public struct FieldDescriptor: Sendable, Hashable {
    /// The field's name, as samples carry it.
    public var name: String
    /// The type of its values.
    public var type: FieldType
    /// The unit of its values (`g`, `mg`, `m/s²`, `dBm`, `s`), `nil` for a count, a code or text.
    public var unit: String?
    /// A longer name for people (an LSL channel label, a plot's axis title); `nil` when the name says it.
    public var label: String?

    /// Creates a field.
    public init(_ name: String, _ type: FieldType, unit: String? = nil, label: String? = nil) {
        self.name = name
        self.type = type
        self.unit = unit
        self.label = label
    }

    /// The same field under another name.
    public func named(_ newName: String) -> FieldDescriptor {
        var f = self
        f.name = newName
        return f
    }
}
