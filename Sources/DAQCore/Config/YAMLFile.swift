import Yams

/// Reads a YAML (or JSON) data file other than a pipeline — a resolver's elements, a test
/// file — with the same care as pipelines: a missing, binary, huge or malformed file is one
/// compiler-style diagnostic, and the composed nodes keep their line and column.
public enum YAMLFile {
    /// The document of the file at `path`, at most `limit` bytes; `kind` names what the
    /// file should be in messages ("an elements file").
    /// - Throws: ``ConfigError`` naming the file, line and column of the problem.
    public static func compose(path: String, limit: Int = 64 << 20, kind: String) throws(ConfigError) -> Node {
        try compose(text: PipelineSource.read(path, limit: limit, kind: kind), file: path)
    }

    /// The document in `text`; `file` names it in diagnostics.
    public static func compose(text: String, file: String) throws(ConfigError) -> Node {
        guard let node = try document(text: text, file: file) else {
            throw ConfigError([Diagnostic(file: file, message: "empty file")])
        }
        return node
    }

    /// The document in `text`, or `nil` when it has none; its aliases are held to
    /// ``AliasBudget`` before anything walks the tree.
    static func document(text: String, file: String) throws(ConfigError) -> Node? {
        let parser: Parser
        let node: Node?
        do {
            parser = try Parser(yaml: text)
            node = try parser.singleRoot()
        } catch {
            throw ConfigError(YAMLErrorDiagnostics.diagnostics(for: error, file: file, text: text))
        }
        // Nodes hold their anchors weakly; the parser owns them, and the budget needs them.
        defer { withExtendedLifetime(parser) {} }
        if let node { try AliasBudget.check(node, file: file) }
        return node
    }
}
