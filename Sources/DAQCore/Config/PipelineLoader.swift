import Foundation
import Yams

/// Loads and validates pipeline files.
///
/// Validation does not stop at the first problem: it reports every one it can find, each at
/// the line and column of the node it is about, the way a compiler does.
public struct PipelineLoader: Sendable {
    /// The plugin types components may name.
    public var registry: PluginRegistry
    /// Values for `${VAR}`.
    public var environment: [String: String]
    /// `key.path=value` overrides, applied after substitution.
    public var overrides: [String]
    /// How an unset `${VAR}` without a default is reported: an error before a run, a note when
    /// only validating (the variable is the user's to set, the file is not wrong).
    public var unsetVariables: Diagnostic.Severity = .error
    /// Computes ``PipelineSpec/configHash``; `nil` leaves it empty (see ``ContentHash``).
    public var contentHash: ContentHash?

    static let topLevelKeys = PipelineSpec.topLevelKeys.map(\.name)

    /// Creates a loader.
    public init(
        registry: PluginRegistry, environment: [String: String] = ProcessInfo.processInfo.environment,
        overrides: [String] = [], contentHash: ContentHash? = nil
    ) {
        self.registry = registry
        self.environment = environment
        self.overrides = overrides
        self.contentHash = contentHash
    }

    /// Loads the pipeline at `path`.
    /// - Throws: ``ConfigError`` with every diagnostic when the file has errors.
    public func load(file path: String) throws(ConfigError) -> PipelineSpec {
        let text = try PipelineSource.read(path)
        return try load(text: text, file: path)
    }

    /// Loads a pipeline from text; `file` names it in diagnostics.
    /// - Throws: ``ConfigError`` with every diagnostic when the text has errors.
    public func load(text: String, file: String) throws(ConfigError) -> PipelineSpec {
        var v = Validation(file: file, registry: registry)
        guard let root = try YAMLFile.document(text: text, file: file) else {
            throw ConfigError([
                Diagnostic(file: file, message: "empty file; expected a mapping with 'sources' and 'sinks'")
            ])
        }
        guard case .mapping = root else {
            throw ConfigError([
                Diagnostic(
                    file: file, line: root.mark?.line, column: root.mark?.column,
                    message: "the top level is \(root.kindName); expected a mapping with 'sources' and 'sinks'")
            ])
        }
        var unset: [EnvironmentSubstitution.Unset] = []
        var tree = EnvironmentSubstitution(environment: environment).apply(root, unset: &unset)
        for u in unset {
            let advice =
                unsetVariables == .error
                ? " (write ${\(u.name):-default})" : "; set it before a run (or write ${\(u.name):-default})"
            v.diagnostics.append(
                Diagnostic(
                    file: file, line: u.mark?.line, column: u.mark.map { $0.column + u.offset },
                    severity: unsetVariables,
                    path: u.path, message: "environment variable '\(u.name)' is not set and has no default\(advice)"))
        }
        let unsetScalars = Set(unset.compactMap { u in u.mark.map { "\($0.line):\($0.column)" } })
        for text in overrides {
            let entry = try Overrides.parse(text)
            tree = Overrides.apply(entry, to: tree)
            v.overridden.insert(entry.path.joined(separator: "."))
        }
        let spec = v.validate(
            tree, defaultName: Self.defaultName(file),
            hash: contentHash.map { Self.hash(text, overrides, with: $0) } ?? "")
        // A value left empty by an unset variable would also fail its type check: say it once.
        v.diagnostics.removeAll { d in
            !d.message.hasPrefix("environment variable") && unsetScalars.contains("\(d.line ?? 0):\(d.column ?? 0)")
        }
        if v.diagnostics.contains(where: { $0.severity == .error }) {
            throw ConfigError(v.diagnostics.sorted(by: Self.fileOrder))
        }
        var result = spec!
        result.warnings = v.diagnostics.sorted(by: Self.fileOrder)
        // Children started by this run must not inherit what its `*_env` keys name.
        SecretVariables.collect(from: tree)
        return result
    }

    static func defaultName(_ file: String) -> String {
        let base = (file as NSString).lastPathComponent
        return (base as NSString).deletingPathExtension.isEmpty ? "pipeline" : (base as NSString).deletingPathExtension
    }

    /// The text, then each override as the line `--set key=value` would add: what was run.
    static func hash(_ text: String, _ overrides: [String], with hash: ContentHash) -> String {
        hash.hex(of: [Array(text.utf8)] + overrides.map { Array(("\n--set " + $0).utf8) })
    }

    static func fileOrder(_ a: Diagnostic, _ b: Diagnostic) -> Bool {
        (a.line ?? Int.max, a.column ?? 0) < (b.line ?? Int.max, b.column ?? 0)
    }
}
