import Yams

/// Turns Yams' errors into compiler-style diagnostics.
enum YAMLErrorDiagnostics {
    static func diagnostics(for error: any Error, file: String, text: String) -> [Diagnostic] {
        guard let yaml = error as? YamlError else {
            return [Diagnostic(file: file, message: "cannot parse YAML: \(error)")]
        }
        switch yaml {
        case .scanner(let context, let problem, let mark, _),
            .parser(let context, let problem, let mark, _),
            .composer(let context, let problem, let mark, _):
            var message = "YAML syntax: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line))" }
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

    /// Yams reports a duplicated key at its first occurrence; the user needs the second one, the
    /// line to delete. Finds the next `key:` after the first at the same indentation (block style)
    /// or on the same line (flow style).
    static func secondOccurrence(of key: String, after mark: Mark, in text: String) -> (Int, Int, Int) {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { Array($0.unicodeScalars) }
        let needle = Array(key.unicodeScalars)
        func matches(_ line: [Unicode.Scalar], at col: Int) -> Bool {
            guard col + needle.count <= line.count, Array(line[col..<(col + needle.count)]) == needle else {
                return false
            }
            var j = col + needle.count
            while j < line.count, line[j] == " " { j += 1 }
            return j < line.count && line[j] == ":"
        }
        let firstLine = mark.line - 1
        let col = mark.column - 1
        if firstLine < lines.count {
            // Flow style: later on the same line.
            var c = col + needle.count
            while c < lines[firstLine].count {
                if matches(lines[firstLine], at: c) { return (mark.line, c + 1, mark.line) }
                c += 1
            }
            for l in (firstLine + 1)..<lines.count where matches(lines[l], at: col) {
                if lines[l][0..<col].allSatisfy({ $0 == " " || $0 == "-" }) { return (l + 1, col + 1, mark.line) }
            }
        }
        return (mark.line, mark.column, mark.line)
    }
}
