import DAQCore
import DAQStandard
import Yams

/// Reads a test file's nodes, collecting every problem as a located ``Diagnostic`` instead of
/// stopping at the first, the way the pipeline loader does.
struct NodeReader {
    let file: String
    private(set) var diagnostics: [Diagnostic] = []

    init(file: String) { self.file = file }

    /// Adds a diagnostic found elsewhere (in the pipeline file).
    mutating func add(_ d: Diagnostic) { diagnostics.append(d) }

    func place(_ node: Node?) -> Place { Place(file: file, node: node) }

    mutating func error(_ node: Node?, _ path: String, _ message: String, columnOffset: Int = 0) {
        diagnostics.append(
            Diagnostic(
                file: file, line: node?.mark?.line, column: node?.mark.map { $0.column + columnOffset }, path: path,
                message: message))
    }

    /// The pairs of a mapping whose keys are all in `allowed` (`nil` allows any string key).
    mutating func mapping(_ node: Node, _ path: String, allowed: [String]?) -> [(
        key: String, keyNode: Node, value: Node
    )]? {
        guard case .mapping(let m) = node else {
            error(node, path, "expected a mapping, found \(node.kindName)")
            return nil
        }
        var out: [(String, Node, Node)] = []
        for (k, v) in m {
            guard let name = k.string, !name.isEmpty else {
                error(k, path, "expected a string key")
                continue
            }
            if let allowed, !allowed.contains(name) {
                let guess = DidYouMean.best(name, in: allowed).map { " (did you mean '\($0)'?)" } ?? ""
                error(
                    k, join(path, name),
                    "unknown key '\(name)'\(guess); expected one of \(allowed.joined(separator: ", "))")
                continue
            }
            out.append((name, k, v))
        }
        return out
    }

    mutating func string(_ node: Node, _ path: String) -> String? {
        guard case .scalar(let s) = node, !node.isNullScalar else {
            error(node, path, "expected a string, found \(node.kindName)")
            return nil
        }
        return s.string
    }

    /// One string or a list of them.
    mutating func strings(_ node: Node, _ path: String) -> [(String, Node)]? {
        if case .sequence(let seq) = node {
            return seq.enumerated().compactMap { i, n in string(n, "\(path)[\(i)]").map { ($0, n) } }
        }
        return string(node, path).map { [($0, node)] }
    }

    mutating func number(_ node: Node, _ path: String) -> Double? {
        guard case .scalar(let s) = node, s.style == .plain, let d = node.float else {
            error(node, path, "expected a number, found \(describe(node))")
            return nil
        }
        return d
    }

    mutating func integer(_ node: Node, _ path: String) -> Int? {
        guard case .scalar(let s) = node, s.style == .plain, let i = node.int, i >= 0 else {
            error(node, path, "expected a count (0 or more), found \(describe(node))")
            return nil
        }
        return i
    }

    /// `3`, or `{min: 1, max: 5}`.
    mutating func count(_ node: Node, _ path: String) -> CountSpec? {
        if case .mapping = node {
            guard let pairs = mapping(node, path, allowed: ["min", "max"]) else { return nil }
            var spec = CountSpec()
            for p in pairs {
                let n = integer(p.value, join(path, p.key))
                if p.key == "min" { spec.min = n } else { spec.max = n }
            }
            if spec.min == nil && spec.max == nil { error(node, path, "give min, max or both") }
            return spec
        }
        return integer(node, path).map { CountSpec(min: $0, max: $0) }
    }

    /// A filter expression; a syntax error points at its column within the scalar.
    mutating func expression(_ node: Node, _ path: String) -> Expression? {
        guard let text = string(node, path) else { return nil }
        do {
            return try Expression(text)
        } catch {
            // A quoted scalar's text starts one column after its mark.
            let quoted = node.scalar.map { $0.style == .singleQuoted || $0.style == .doubleQuoted } ?? false
            self.error(
                node, path, "invalid expression: \(error.message)", columnOffset: error.offset + (quoted ? 1 : 0))
            return nil
        }
    }

    func describe(_ node: Node) -> String {
        node.scalar.map { "'\($0.string)'" } ?? node.kindName
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
}

extension Value {
    /// A YAML node as a sample value: plain `true`/`false`, integers, numbers and null are
    /// typed; anything quoted is a string; lists and mappings nest.
    init(yaml node: Node) {
        switch node {
        case .scalar(let s):
            if s.style == .plain {
                if node.isNullScalar {
                    self = .null
                    return
                }
                if s.string == "true" || s.string == "false" {
                    self = .bool(s.string == "true")
                    return
                }
                if let i = node.int {
                    self = .int(Int64(i))
                    return
                }
                if let d = node.float {
                    self = .double(d)
                    return
                }
            }
            self = .string(s.string)
        case .sequence(let seq): self = .array(seq.map(Value.init(yaml:)))
        case .mapping(let m): self = .object(Fields(m.map { ($0.key.string ?? "", Value(yaml: $0.value)) }))
        case .alias: self = .null
        }
    }
}
