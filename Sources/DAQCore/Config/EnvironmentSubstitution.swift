import Yams

/// Replaces `${VAR}` and `${VAR:-default}` in every scalar with values from the environment.
///
/// Substitution runs on the composed node tree, not on the text, so a value can never change
/// the document's structure and every error still has the scalar's line and column. `$${` is a
/// literal `${`. `daq test` uses it too (package access), to read what a key will hold.
package struct EnvironmentSubstitution {
    var environment: [String: String]

    package init(environment: [String: String]) {
        self.environment = environment
    }

    /// An unset variable with no default.
    struct Unset {
        var name: String
        var mark: Mark?
        /// Offset of `${` from the mark, counting a quoted scalar's opening quote.
        var offset: Int
        /// The dotted key path of the scalar.
        var path: String
    }

    /// Substitutes throughout `node`, collecting unset variables.
    func apply(_ node: Node, path: [String] = [], unset: inout [Unset]) -> Node {
        switch node {
        case .scalar(var s):
            guard s.string.contains("$") else { return node }
            let (text, missing) = substitute(s.string)
            let quote = s.style == .singleQuoted || s.style == .doubleQuoted ? 1 : 0
            for (name, offset) in missing {
                unset.append(Unset(name: name, mark: s.mark, offset: offset + quote, path: path.joined(separator: ".")))
            }
            if text != s.string {
                s.string = text
                // A plain scalar re-resolves its type (`${COUNT:-10}` becomes an integer).
                if s.style != .plain { s.tag = Tag(.str) }
            }
            return .scalar(s)
        case .mapping(var m):
            let pairs = m.map { ($0.key, apply($0.value, path: path + [$0.key.string ?? "?"], unset: &unset)) }
            let rebuilt = Node.Mapping(pairs, m.tag, m.style, m.mark)
            m = rebuilt
            return .mapping(m)
        case .sequence(let seq):
            let items = seq.enumerated().map { i, item in
                apply(item, path: path.isEmpty ? ["[\(i)]"] : path.dropLast() + ["\(path.last!)[\(i)]"], unset: &unset)
            }
            return .sequence(Node.Sequence(items, seq.tag, seq.style, seq.mark))
        case .alias:
            return node
        }
    }

    /// The substituted text and the unset variables with their scalar offsets.
    package func substitute(_ text: String) -> (String, [(String, Int)]) {
        let chars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var missing: [(String, Int)] = []
        var i = 0
        while i < chars.count {
            if chars[i] == "$", i + 2 < chars.count, chars[i + 1] == "$", chars[i + 2] == "{" {
                out.append("$")
                out.append("{")
                i += 3
                continue
            }
            guard chars[i] == "$", i + 1 < chars.count, chars[i + 1] == "{",
                let close = chars[(i + 2)...].firstIndex(of: "}")
            else {
                out.append(chars[i])
                i += 1
                continue
            }
            let inner = String(String.UnicodeScalarView(chars[(i + 2)..<close]))
            let name: String
            let fallback: String?
            if let range = inner.range(of: ":-") {
                name = String(inner[..<range.lowerBound])
                fallback = String(inner[range.upperBound...])
            } else {
                name = inner
                fallback = nil
            }
            if let value = environment[name], !(value.isEmpty && fallback != nil) {
                out.append(contentsOf: value.unicodeScalars)
            } else if let fallback {
                out.append(contentsOf: fallback.unicodeScalars)
            } else {
                missing.append((name, i))
            }
            i = close + 1
        }
        return (String(out), missing)
    }
}
