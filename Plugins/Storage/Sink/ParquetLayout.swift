import DAQCore

/// The columns of a stream's Parquet file: `timestamp`, `uptime`, `stepPath`, `kind`, `marker`,
/// then one per descriptor field, typed by the descriptor (never by the first value seen).
///
/// `kind` (`data`, `event`, `marker`) and `marker` (what a marker row marks: `start`, `step`,
/// `pause`, `resume`, `stop`; or the text a marker stream's event carries) keep the rows the
/// CSV logger writes: its marker rows are rows here too, and `kind` says which rows are data,
/// so `WHERE kind = 'data'` gives the samples alone.
struct ParquetLayout: Equatable {
    /// The fixed columns every file starts with.
    static let fixed: [ParquetColumnSchema] = [
        ParquetColumnSchema(name: "timestamp", type: .int64, logicalType: .timestampMicrosUTC, optional: false),
        ParquetColumnSchema(name: "uptime", type: .double, logicalType: nil, optional: false),
        ParquetColumnSchema(name: "stepPath", type: .byteArray, logicalType: .string, optional: false),
        ParquetColumnSchema(name: "kind", type: .byteArray, logicalType: .string, optional: false),
        ParquetColumnSchema(name: "marker", type: .byteArray, logicalType: .string, optional: true),
    ]

    /// Field names that a fixed column already has; such a field is not written (but `marker`,
    /// which shares the fixed column, as in the CSV logger).
    static let reserved: Set<String> = ["timestamp", "uptime", "stepPath", "kind"]

    /// Every column, fixed ones first.
    private(set) var columns: [ParquetColumnSchema] = fixed
    /// The unit of each field column that has one.
    private(set) var units: [String: String] = [:]

    init() {}

    /// The layout of `descriptor`, widened by any column of `batch` the descriptor lacks.
    init(descriptor: StreamDescriptor?, batch: Batch?) {
        for field in descriptor?.fields ?? [] { add(field) }
        for column in batch?.columns ?? [] where !contains(column.name) {
            add(FieldDescriptor(column.name, column.fieldType ?? .any))
        }
    }

    func contains(_ name: String) -> Bool { columns.contains { $0.name == name } }

    /// The columns of `other` this layout lacks, in `other`'s order.
    func missing(from other: ParquetLayout) -> [ParquetColumnSchema] {
        other.columns.filter { !contains($0.name) }
    }

    /// The columns of `other` this layout has under another type, as `other` types them.
    func retyped(by other: ParquetLayout) -> [ParquetColumnSchema] {
        other.columns.filter { c in columns.contains { $0.name == c.name && $0 != c } }
    }

    /// Replaces the column of the same name.
    mutating func replace(_ column: ParquetColumnSchema) {
        if let i = columns.firstIndex(where: { $0.name == column.name }) { columns[i] = column }
    }

    /// Adds `columns` at the end (a file widened in place).
    mutating func append(_ more: [ParquetColumnSchema], units moreUnits: [String: String]) {
        columns += more
        units.merge(moreUnits) { a, _ in a }
    }

    private mutating func add(_ field: FieldDescriptor) {
        if Self.reserved.contains(field.name) || field.name == "marker" || contains(field.name) { return }
        columns.append(Self.column(for: field))
        if let unit = field.unit { units[field.name] = unit }
    }

    /// The Parquet column of a descriptor field: double → DOUBLE, int → INT64, bool → BOOLEAN,
    /// bytes → BYTE_ARRAY, and text, arrays, objects and mixed values → STRING (JSON for the
    /// nested ones, as the CSV logger writes them).
    static func column(for field: FieldDescriptor) -> ParquetColumnSchema {
        switch field.type {
        case .double: ParquetColumnSchema(name: field.name, type: .double, logicalType: nil, optional: true)
        case .int: ParquetColumnSchema(name: field.name, type: .int64, logicalType: nil, optional: true)
        case .bool: ParquetColumnSchema(name: field.name, type: .boolean, logicalType: nil, optional: true)
        case .bytes: ParquetColumnSchema(name: field.name, type: .byteArray, logicalType: nil, optional: true)
        case .string, .array, .object, .any:
            ParquetColumnSchema(name: field.name, type: .byteArray, logicalType: .string, optional: true)
        }
    }
}
