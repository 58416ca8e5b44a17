/// The documentation of one configuration key, printed by `daq plugins describe` and used by
/// validation to reject unknown keys with a did-you-mean.
public struct ConfigKey: Sendable, Hashable {
    /// The YAML key.
    public var name: String
    /// The expected type, as users read it: `string`, `double`, `int`, `seconds`, `[string]`, an enum `a | b`.
    public var type: String
    /// The default, as YAML text; `nil` when the key is required or has no default.
    public var defaultValue: String?
    /// Whether the key must be given.
    public var required: Bool
    /// One line of documentation.
    public var doc: String

    /// Creates the documentation of an optional key.
    public init(_ name: String, _ type: String, default defaultValue: String? = nil, _ doc: String) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.required = false
        self.doc = doc
    }

    /// Creates the documentation of a required key.
    public static func required(_ name: String, _ type: String, _ doc: String) -> ConfigKey {
        var key = ConfigKey(name, type, doc)
        key.required = true
        return key
    }
}

/// Source, transform or sink.
public enum PluginKind: String, Sendable, Hashable, CaseIterable, Comparable {
    case source
    case transform
    case sink

    /// The top-level YAML section holding components of this kind.
    public var section: String { rawValue + "s" }

    public static func < (a: PluginKind, b: PluginKind) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}
