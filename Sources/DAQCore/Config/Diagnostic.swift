/// One problem found in a pipeline file, printed like a compiler's:
/// `walk.yaml:14:11: error: sinks.log.inputs: unknown component 'motoin' (did you mean 'motion'?)`.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// Error or warning.
    public enum Severity: String, Sendable, Hashable {
        case error
        case warning
        /// Something the user must supply before a run, which does not make the file wrong
        /// (an unset `${VAR}` when only validating).
        case note
    }

    /// The file, as the user named it.
    public var file: String
    /// 1-based line, or `nil` when the problem has no place in the file (a `--set` value, a missing file).
    public var line: Int?
    /// 1-based column, counted in Unicode scalars.
    public var column: Int?
    /// Error or warning.
    public var severity: Severity
    /// The key path, dotted (`sinks.log.inputs`), or empty for the whole file.
    public var path: String
    /// What is wrong and what was expected.
    public var message: String

    /// Creates a diagnostic.
    public init(
        file: String, line: Int? = nil, column: Int? = nil, severity: Severity = .error, path: String = "",
        message: String
    ) {
        self.file = file
        self.line = line
        self.column = column
        self.severity = severity
        self.path = path
        self.message = message
    }

    public var description: String {
        var location = file
        if let line {
            location += ":\(line)"
            if let column { location += ":\(column)" }
        }
        let key = path.isEmpty ? "" : "\(path): "
        return "\(location): \(severity.rawValue): \(key)\(message)"
    }
}

/// Thrown when a pipeline file has errors; carries every diagnostic, warnings included.
public struct ConfigError: Error, Sendable, CustomStringConvertible {
    /// Every problem found, in file order.
    public var diagnostics: [Diagnostic]

    /// Creates the error.
    public init(_ diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public var description: String { diagnostics.map(\.description).joined(separator: "\n") }
}

/// A value a plugin's ``PluginConfiguration/validate()`` rejects.
///
/// The key path is relative to the component, so the validator can point at that key's line
/// and column. `offset` moves the column within a scalar (an expression's bad token).
public struct ConfigIssue: Error, Sendable {
    /// Keys from the component's mapping down to the offending value: `["window", "size"]`.
    public var path: [String]
    /// What is wrong and what was expected.
    public var message: String
    /// Unicode-scalar offset inside the scalar's text, when the problem is within it.
    public var offset: Int?

    /// Creates an issue for `key`, a dotted path relative to the component.
    public init(key: String, _ message: String, offset: Int? = nil) {
        self.path = key.split(separator: ".").map(String.init)
        self.message = message
        self.offset = offset
    }
}
