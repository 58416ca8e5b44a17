import DAQCore

/// A column's type as binary `COPY` sends it; the server's `udt_name` names it.
enum PostgresColumnType: String, Sendable, Equatable {
    case timestamptz, float8, float4, int8, int4, int2, bool, text, varchar, json, jsonb, bytea

    /// The type of a descriptor field's new column: double → double precision, int → bigint,
    /// bool → boolean, bytes → bytea, and text, arrays, objects and mixed values → text (JSON
    /// for the nested ones, as the CSV logger writes them).
    init(field: FieldType) {
        switch field {
        case .double: self = .float8
        case .int: self = .int8
        case .bool: self = .bool
        case .bytes: self = .bytea
        case .string, .array, .object, .any: self = .text
        }
    }

    /// The name `CREATE TABLE` and `ALTER TABLE … ADD COLUMN` use.
    var sqlName: String {
        switch self {
        case .timestamptz: "timestamptz"
        case .float8: "double precision"
        case .float4: "real"
        case .int8: "bigint"
        case .int4: "integer"
        case .int2: "smallint"
        case .bool: "boolean"
        case .text: "text"
        case .varchar: "varchar"
        case .json: "json"
        case .jsonb: "jsonb"
        case .bytea: "bytea"
        }
    }
}

/// One column the sink writes.
struct PostgresColumn: Sendable, Equatable {
    var name: String
    var type: PostgresColumnType
    /// The column is created `NOT NULL` (the fixed ones).
    var required = false
}

/// The columns of a `postgres` sink's table: `time`, `uptime`, `step`, `kind`, `marker`,
/// `stream`, then one per descriptor field, typed by the descriptor, never by the first value.
///
/// `kind` is `data`, `event` or `marker`; a marker row has its mark (`start`, `step`, `pause`,
/// `resume`, `stop`) in `marker` and every field null, so `WHERE kind = 'data'` gives the
/// samples alone, as with the `parquet` sink. `stream` names the component that fed the row.
struct PostgresTableLayout: Sendable, Equatable {
    static let fixed: [PostgresColumn] = [
        PostgresColumn(name: "time", type: .timestamptz, required: true),
        PostgresColumn(name: "uptime", type: .float8, required: true),
        PostgresColumn(name: "step", type: .text, required: true),
        PostgresColumn(name: "kind", type: .text, required: true),
        PostgresColumn(name: "marker", type: .text),
        PostgresColumn(name: "stream", type: .text, required: true),
    ]

    /// Every column, fixed ones first.
    private(set) var columns: [PostgresColumn] = fixed

    /// The layout of the fields of `descriptors`, in order, each name once.
    init(descriptors: [StreamDescriptor] = []) {
        for d in descriptors { for f in d.fields { add(PostgresColumn(name: f.name, type: .init(field: f.type))) } }
    }

    /// Whether a column of that name is written.
    func contains(_ name: String) -> Bool { columns.contains { $0.name == name } }

    /// Adds a field's column unless a column of that name exists; returns whether it did.
    @discardableResult
    mutating func add(_ column: PostgresColumn) -> Bool {
        if contains(column.name) || column.name == StreamDescriptor.markerField.name { return false }
        columns.append(column)
        return true
    }

    /// Takes the server's type for every column the table has already: binary `COPY` must send
    /// each value in its column's own type.
    mutating func adopt(serverTypes: [String: PostgresColumnType]) {
        for i in columns.indices { if let t = serverTypes[columns[i].name] { columns[i].type = t } }
    }

    /// `CREATE TABLE IF NOT EXISTS` for this layout.
    func createStatement(table: String) -> String {
        let cols = columns.map { c in
            "\(PostgresSQL.identifier(c.name)) \(c.type.sqlName)\(c.required ? " NOT NULL" : "")"
        }
        return "CREATE TABLE IF NOT EXISTS \(PostgresSQL.identifier(table)) (\(cols.joined(separator: ", ")))"
    }
}

/// SQL text built by the sink: names are quoted identifiers, values go as bind parameters.
enum PostgresSQL {
    /// `name` as a quoted identifier: `"a""b"` for `a"b`.
    static func identifier(_ name: String) -> String {
        "\"" + name.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `'text'` as a string literal, for the few statements that take no bind parameters.
    static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }

    /// The default table of a component: `<pipeline>_<component>`, lower case, with every
    /// character other than a letter, digit or `_` as `_`, at most 63 bytes (PostgreSQL's limit).
    static func defaultTable(pipeline: String, component: String) -> String {
        let raw = "\(pipeline)_\(component)".lowercased()
        let cleaned = String(
            raw.unicodeScalars.map { s -> Character in
                let v = s.value
                let ok = (97...122).contains(v) || (48...57).contains(v) || v == 95
                return ok ? Character(s) : "_"
            })
        return String(cleaned.utf8.prefix(63).map { Character(UnicodeScalar($0)) })
    }
}
