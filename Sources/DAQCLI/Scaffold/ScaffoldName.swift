import DAQCore

/// A plugin name given to `daq plugins new`, and the names derived from it: the YAML type,
/// the Swift types and targets, the Python file.
///
/// The name is the `type:` users write in YAML, so it follows the built-in names' shape
/// (`motion.replay`): lowercase words of letters and digits joined by `.`, `-` or `_`.
struct ScaffoldName: Sendable, Equatable {
    /// The name as given, also the plugin's `type:`.
    let typeName: String
    /// `pt-probe` → `PtProbe`: the stem of the Swift type and module names.
    let camel: String

    /// The longest name accepted: it becomes file, folder, target and type names.
    static let maxLength = 48

    /// Validates `name`.
    /// - Throws: ``ScaffoldError`` saying what is wrong and what a good name looks like.
    init(_ name: String) throws(ScaffoldError) {
        let example =
            "lowercase words of letters and digits joined by '.', '-' or '_', starting with a letter, e.g. 'pt100', 'lab.thermometer', 'serial-scale'"
        guard !name.isEmpty else { throw ScaffoldError("the plugin name is empty; use \(example)") }
        guard name.count <= Self.maxLength else {
            throw ScaffoldError(
                "the plugin name '\(name)' is \(name.count) characters long; use at most \(Self.maxLength)")
        }
        let words = name.split(omittingEmptySubsequences: false, whereSeparator: { Self.separators.contains($0) })
        guard let first = name.first, first.isASCII, first.isLowercase,
            words.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) } })
        else {
            throw ScaffoldError("'\(name)' is not a valid plugin name; use \(example)")
        }
        typeName = name
        camel = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    private static let separators: Set<Character> = [".", "-", "_"]

    /// The Swift class: `PtProbeSource`, `PtProbeTransform`, `PtProbeSink`.
    func swiftType(_ kind: PluginKind) -> String {
        camel + kind.rawValue.prefix(1).uppercased() + kind.rawValue.dropFirst()
    }
    /// The library target holding the plugin.
    var module: String { camel + "Plugin" }
    /// The Python script: `pt_probe_transform.py`. The kind in the name keeps it from
    /// shadowing a standard module (a plugin named `json` would otherwise break `import json`).
    func pythonFile(_ kind: PluginKind) -> String {
        typeName.replacingOccurrences(of: "-", with: "_").replacingOccurrences(of: ".", with: "_")
            + "_\(kind.rawValue).py"
    }
    /// The folder written to when `--output` is not given.
    var folder: String { typeName }
}

/// Why `daq plugins new` refused to write anything.
struct ScaffoldError: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) { self.description = description }
}
