import Yams

/// Applies `--set key.path=value` overrides to a composed pipeline.
///
/// The value is parsed as YAML (`--set speed=2` is a number, `--set 'sinks.log.inputs=[a, b]'`
/// a list); missing mappings on the way are created.
struct Overrides {
    /// One parsed override.
    struct Entry {
        var path: [String]
        var value: Node
        var text: String
    }

    /// Parses `key.path=value`.
    /// - Throws: a message when the text has no `=` or an empty key.
    static func parse(_ text: String) throws(ConfigError) -> Entry {
        guard let eq = text.firstIndex(of: "=") else {
            throw ConfigError([Diagnostic(file: "--set", message: "expected key.path=value, found '\(text)'")])
        }
        let path = text[..<eq].split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        if path.isEmpty || path.contains(where: \.isEmpty) {
            throw ConfigError([Diagnostic(file: "--set", message: "empty key in '\(text)'")])
        }
        let raw = String(text[text.index(after: eq)...])
        // A value that is not YAML is meant as the text itself.
        var node = Node(raw)
        if let parser = try? Parser(yaml: raw), let composed = try? parser.singleRoot() ?? Node("", Tag(.null)) {
            node = composed
            // Nodes hold their anchors weakly; the parser owns them, and the budget needs them.
            try AliasBudget.check(node, file: "--set")
            withExtendedLifetime(parser) {}
        }
        return Entry(path: path, value: stripMarks(node), text: text)
    }

    /// Sets `entry.value` at `entry.path` inside `root`.
    static func apply(_ entry: Entry, to root: Node) -> Node {
        set(entry.path[...], entry.value, in: root)
    }

    private static func set(_ path: ArraySlice<String>, _ value: Node, in node: Node) -> Node {
        guard let key = path.first else { return value }
        var pairs: [(Node, Node)] = []
        var mark: Mark?
        if case .mapping(let m) = node {
            pairs = m.map { ($0.key, $0.value) }
            mark = m.mark
        }
        if let i = pairs.firstIndex(where: { $0.0.string == key }) {
            pairs[i].1 = set(path.dropFirst(), value, in: pairs[i].1)
        } else {
            pairs.append((Node(key), set(path.dropFirst(), value, in: Node([(Node, Node)]()))))
        }
        return .mapping(Node.Mapping(pairs, Tag(.map), .block, mark))
    }

    /// Marks of a value parsed from the command line would point into the `--set` text, not the file.
    private static func stripMarks(_ node: Node) -> Node {
        switch node {
        case .scalar(let s): return .scalar(Node.Scalar(s.string, s.tag, s.style, nil))
        case .mapping(let m):
            return .mapping(Node.Mapping(m.map { (stripMarks($0.key), stripMarks($0.value)) }, m.tag, m.style, nil))
        case .sequence(let s): return .sequence(Node.Sequence(s.map(stripMarks), s.tag, s.style, nil))
        case .alias: return node
        }
    }
}
