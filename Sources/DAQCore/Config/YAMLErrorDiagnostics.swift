import Yams

/// Turns Yams' errors into compiler-style diagnostics.
enum YAMLErrorDiagnostics {
    /// libyaml's default limit (`yaml_set_max_nest_level`), which Yams keeps.
    static let maxNesting = 1000

    static func diagnostics(for error: any Error, file: String, text: String) -> [Diagnostic] {
        guard let yaml = error as? YamlError else {
            return [Diagnostic(file: file, message: "cannot parse YAML: \(error)")]
        }
        switch yaml {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            var message = "YAML syntax: \(problem)"
            if problem.hasPrefix("Maximum nesting level reached") {
                // libyaml's text names its C setter; the user needs the limit and where it was hit.
                message = "nested too deep: YAML files may nest lists and mappings at most \(maxNesting) levels"
            } else if let tab = tabColumn(onLine: mark.line, of: text), problem.contains("cannot start any token") {
                // libyaml names no character; nearly always it is a tab an editor put in the indentation.
                return [
                    Diagnostic(
                        file: file, line: mark.line, column: tab,
                        message:
                            "YAML syntax: a tab in the indentation; YAML indents with spaces only, so replace the tab with spaces"
                    )
                ]
            } else if let context {
                message += " (\(context.text) at line \(context.mark.line))"
            }
            return [Diagnostic(file: file, line: mark.line, column: mark.column, message: message)]
        case .reader(let problem, let offset, _, _):
            return [Diagnostic(file: file, message: "cannot read YAML: \(problem) at byte \(offset ?? 0)")]
        case .duplicatedKeysInMapping(let duplicates, let context):
            return duplicates.map { key in
                let (line, column, first) = secondOccurrence(of: key, after: context.mark, in: text)
                return Diagnostic(
                    file: file, line: line, column: column,
                    message: "key '\(key)' is given twice in one mapping (first at line \(first))")
            }
        default:
            return [Diagnostic(file: file, message: "cannot parse YAML: \(yaml)")]
        }
    }

    /// The 1-based column of a tab among the leading whitespace of 1-based `line`, if any.
    static func tabColumn(onLine line: Int, of text: String) -> Int? {
        guard line >= 1 else { return nil }
        var current = 1
        var column = 0
        for byte in text.utf8 {
            if current == line {
                column += 1
                if byte == UInt8(ascii: "\t") { return column }
                if byte != UInt8(ascii: " ") { return nil }
            } else if byte == UInt8(ascii: "\n") {
                current += 1
                if current > line { return nil }
            }
        }
        return nil
    }

    /// Yams reports every duplicated key of a mapping at one mark: the first occurrence of the
    /// alphabetically first of them. The user needs each key's second occurrence, the line to
    /// delete. In block style the mapping's keys share the mark's column and lie within the lines
    /// indented at least that far; in flow style they sit on the mark's line.
    static func secondOccurrence(of key: String, after mark: Mark, in text: String) -> (Int, Int, Int) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        let spellings = [key, "\"\(key)\"", "'\(key)'"].map { Array($0.unicodeScalars) }
        func keyLength(_ line: [Unicode.Scalar], at col: Int) -> Int? {
            for needle in spellings
            where col + needle.count <= line.count && Array(line[col..<(col + needle.count)]) == needle {
                var j = col + needle.count
                while j < line.count, line[j] == " " { j += 1 }
                if j < line.count && line[j] == ":" { return needle.count }
            }
            return nil
        }
        func indentation(_ line: [Unicode.Scalar]) -> Int? {
            guard let i = line.firstIndex(where: { $0 != " " && $0 != "-" }), line[i] != "#" else { return nil }
            return i
        }
        let markLine = mark.line - 1
        let col = mark.column - 1
        guard markLine < lines.count else { return (mark.line, mark.column, mark.line) }
        // Flow style: every occurrence on the mark's line.
        var hits: [(Int, Int)] = []
        if lines[markLine].contains("{") {
            var c = 0
            while c < lines[markLine].count {
                let prev = c == 0 ? " " : lines[markLine][c - 1]
                if prev == "{" || prev == " " || prev == ",", keyLength(lines[markLine], at: c) != nil {
                    hits.append((markLine, c))
                }
                c += 1
            }
        }
        if hits.count < 2 {
            hits = []
            var first = markLine
            while first > 0, indentation(lines[first - 1]).map({ $0 >= col }) ?? true { first -= 1 }
            var last = markLine
            while last + 1 < lines.count, indentation(lines[last + 1]).map({ $0 >= col }) ?? true { last += 1 }
            for l in first...last
            where keyLength(lines[l], at: col) != nil && lines[l][0..<col].allSatisfy({ $0 == " " || $0 == "-" }) {
                hits.append((l, col))
            }
        }
        guard hits.count >= 2 else { return (mark.line, mark.column, mark.line) }
        return (hits[1].0 + 1, hits[1].1 + 1, hits[0].0 + 1)
    }
}
