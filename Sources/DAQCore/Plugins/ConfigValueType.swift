/// The meaning of a ``ConfigKey/type`` text, so `daq schema` and the generated plugin reference
/// read the same metadata that `daq plugins describe` prints instead of a second description
/// that could drift from it.
///
/// The grammar of the type text:
///
/// | text | value |
/// |---|---|
/// | `string`, `text`, `path`, `expression` | a string (`expression`: a filter expression) |
/// | `int`, `double`, `bool` | an integer, a number, `true`/`false` |
/// | `seconds` | a number of seconds or a duration such as `500ms`, `2s`, `5m` |
/// | `any`, `null` | anything; nothing |
/// | `T (unit)` | `T`; the unit is for people |
/// | `[T]` | a list of `T` |
/// | `{a, b: T}` | a mapping with keys `a` (any value) and `b` (a `T`), no others |
/// | `{K: T}` | a mapping from any key (named `K` for people) to `T` |
/// | `a \| b \| c` | one of these words, or one of these types when every part is a type |
/// | `T or U` | either |
public indirect enum ConfigValueType: Sendable, Hashable {
    case string
    case path
    case integer
    case number
    case boolean
    case duration
    case any
    case null
    /// One of these literal values.
    case choice([String])
    case list(ConfigValueType)
    /// A mapping with exactly these keys; `nil` type means any value.
    case record([(name: String, type: ConfigValueType?)])
    /// A mapping from free keys to values of one type.
    case map(ConfigValueType)
    case either([ConfigValueType])

    /// Parses a type text; `nil` when the text does not follow the grammar.
    public init?(parsing text: String) {
        guard let parsed = Self.parse(Substring(text)) else { return nil }
        self = parsed
    }

    private static let words: [String: ConfigValueType] = [
        "string": .string, "text": .string, "path": .path, "expression": .string, "int": .integer, "double": .number,
        "bool": .boolean, "seconds": .duration, "any": .any, "null": .null,
    ]

    private static func parse(_ raw: Substring) -> ConfigValueType? {
        var text = raw.trimmingSpaces
        if text.isEmpty { return nil }
        let alternatives = text.splitTopLevel(separator: " or ")
        if alternatives.count > 1 {
            let parts = alternatives.compactMap(parse)
            return parts.count == alternatives.count ? .either(parts) : nil
        }
        let bars = text.splitTopLevel(separator: " | ")
        if bars.count > 1 {
            let types = bars.map { parse($0) }
            if types.allSatisfy({ $0 != nil }) { return .either(types.map { $0! }) }
            let literals = bars.map { String($0.trimmingSpaces) }
            return literals.allSatisfy(\.isLiteralWord) ? .choice(literals) : nil
        }
        // A trailing "(unit)" documents the number for people.
        if text.hasSuffix(")"), let open = text.lastIndex(of: "("), open != text.startIndex {
            text = text[..<open].trimmingSpaces
        }
        if text.hasPrefix("["), text.hasSuffix("]") {
            return parse(text.dropFirst().dropLast()).map(ConfigValueType.list)
        }
        if text.hasPrefix("{"), text.hasSuffix("}") {
            return parseMapping(text.dropFirst().dropLast())
        }
        return words[String(text)]
    }

    private static func parseMapping(_ body: Substring) -> ConfigValueType? {
        let entries = body.splitTopLevel(separator: ",").map(\.trimmingSpaces)
        var fields: [(name: String, type: ConfigValueType?)] = []
        for entry in entries {
            if let colon = entry.firstTopLevelColon {
                let name = String(entry[..<colon].trimmingSpaces)
                guard name.isLiteralWord, let type = parse(entry[entry.index(after: colon)...]) else { return nil }
                fields.append((name, type))
            } else {
                guard String(entry).isLiteralWord else { return nil }
                fields.append((String(entry), nil))
            }
        }
        if fields.count == 1, let only = fields[0].type { return .map(only) }
        return fields.isEmpty ? nil : .record(fields)
    }

    public static func == (a: ConfigValueType, b: ConfigValueType) -> Bool { a.description == b.description }
    public func hash(into hasher: inout Hasher) { hasher.combine(description) }
}

extension ConfigValueType: CustomStringConvertible {
    /// A canonical spelling, for comparing and for messages.
    public var description: String {
        switch self {
        case .string: "string"
        case .path: "path"
        case .integer: "int"
        case .number: "double"
        case .boolean: "bool"
        case .duration: "seconds"
        case .any: "any"
        case .null: "null"
        case .choice(let values): values.joined(separator: " | ")
        case .list(let t): "[\(t)]"
        case .record(let fields):
            "{" + fields.map { f in f.type.map { "\(f.name): \($0)" } ?? f.name }.joined(separator: ", ") + "}"
        case .map(let t): "{key: \(t)}"
        case .either(let ts): ts.map(\.description).joined(separator: " or ")
        }
    }
}

extension ConfigKey {
    /// What ``type`` means; `nil` when the text does not follow ``ConfigValueType``'s grammar,
    /// which the test of every built-in plugin rejects.
    public var valueType: ConfigValueType? { ConfigValueType(parsing: type) }
}

extension Substring {
    fileprivate var trimmingSpaces: Substring {
        var s = self
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return s
    }

    /// Splits at `separator` outside brackets and braces.
    fileprivate func splitTopLevel(separator: String) -> [Substring] {
        var parts: [Substring] = []
        var depth = 0
        var start = startIndex
        var i = startIndex
        while i < endIndex {
            let c = self[i]
            if c == "[" || c == "{" || c == "(" { depth += 1 }
            if c == "]" || c == "}" || c == ")" { depth -= 1 }
            if depth == 0, self[i...].hasPrefix(separator) {
                parts.append(self[start..<i])
                i = index(i, offsetBy: separator.count)
                start = i
                continue
            }
            i = index(after: i)
        }
        parts.append(self[start..<endIndex])
        return parts
    }

    fileprivate var firstTopLevelColon: Index? {
        var depth = 0
        for i in indices {
            switch self[i] {
            case "[", "{": depth += 1
            case "]", "}": depth -= 1
            case ":" where depth == 0: return i
            default: break
            }
        }
        return nil
    }
}

extension String {
    /// A bare word such as `drop_oldest`, `crlf`, `0` or `u16le`: a literal or a key name.
    fileprivate var isLiteralWord: Bool {
        !isEmpty && allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "." }
    }
}
