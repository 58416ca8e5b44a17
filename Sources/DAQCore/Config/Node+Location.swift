import Yams

extension Node {
    /// The key/value pairs when the node is a mapping.
    var pairs: [(key: Node, value: Node)]? {
        guard case .mapping(let m) = self else { return nil }
        return m.map { ($0.key, $0.value) }
    }

    /// The pair whose key is the string `key`.
    func pair(_ key: String) -> (key: Node, value: Node)? {
        pairs?.first { $0.key.string == key }
    }

    /// What the node is, as messages name it.
    public var kindName: String {
        switch self {
        case .scalar(let s): return s.string.isEmpty || s.string == "~" || s.string == "null" ? "null" : "a scalar"
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias: return "an alias"
        }
    }

    /// Whether the node is an empty or null scalar.
    public var isNullScalar: Bool {
        guard case .scalar(let s) = self else { return false }
        return s.style == .plain && ["", "~", "null", "Null", "NULL"].contains(s.string)
    }
}

/// Maps a `DecodingError` from a component's configuration back to the YAML node it is about,
/// so a type mismatch or a missing key is reported at its line and column.
struct DecodingErrorLocator {
    /// The node the decoder started from (the component's mapping).
    var root: Node

    /// The node at `codingPath`, and the last node that exists on the way when the path ends early.
    func node(at codingPath: [any CodingKey]) -> (node: Node, keyNode: Node?, complete: Bool) {
        var current = root
        var keyNode: Node?
        for key in codingPath {
            if let index = key.intValue, case .sequence(let seq) = current, index < seq.count {
                current = seq[index]
                keyNode = nil
            } else if let pair = current.pair(key.stringValue) {
                keyNode = pair.key
                current = pair.value
            } else {
                return (current, keyNode, false)
            }
        }
        return (current, keyNode, true)
    }

    /// The message and the node to point at for `error`.
    func describe(_ error: DecodingError) -> (message: String, node: Node, path: [String]) {
        switch error {
        case .keyNotFound(let key, let context):
            let found = node(at: context.codingPath)
            return ("missing required key '\(key.stringValue)'", found.node, context.codingPath.map(\.stringValue))
        case .typeMismatch(let type, let context):
            let found = node(at: context.codingPath)
            let text = found.node.scalar.map { "'\($0.string)'" } ?? found.node.kindName
            return (
                "expected \(Self.typeName(type)), found \(text)", found.node, context.codingPath.map(\.stringValue)
            )
        case .valueNotFound(let type, let context):
            let found = node(at: context.codingPath)
            return ("expected \(Self.typeName(type)), found null", found.node, context.codingPath.map(\.stringValue))
        case .dataCorrupted(let context):
            let found = node(at: context.codingPath)
            var message = context.debugDescription
            if message.hasPrefix("Cannot initialize") || message.isEmpty {
                message = "invalid value" + (found.node.scalar.map { " '\($0.string)'" } ?? "")
            }
            return (message, found.node, context.codingPath.map(\.stringValue))
        @unknown default:
            return ("\(error)", root, [])
        }
    }

    /// A user-facing name for a Swift type in a type mismatch.
    static func typeName(_ type: Any.Type) -> String {
        let name = String(describing: type)
        switch name {
        case "Int", "Int64", "Int32", "UInt", "UInt64", "UInt32", "UInt16", "UInt8", "Int16", "Int8":
            return "an integer"
        case "Double", "Float": return "a number"
        case "String": return "a string"
        case "Bool": return "true or false"
        case "Scalar": return "a single value"
        default:
            if name.hasPrefix("Array") || name.hasPrefix("[") { return "a list" }
            if name.hasPrefix("Dictionary") || name.contains("KeyedDecodingContainer") { return "a mapping" }
            return "a value of type \(name)"
        }
    }
}
