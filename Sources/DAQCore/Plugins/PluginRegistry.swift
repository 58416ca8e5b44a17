import Synchronization

/// The plugin types a `daq` build knows, keyed by kind and type name.
///
/// A name may be registered once per kind (`file` is both a source and a sink).
///
/// # Thread safety
/// Immutable after creation; a `Sendable` value.
public struct PluginRegistry: Sendable {
    private var byKind: [PluginKind: [String: PluginDescriptor]] = [:]

    /// Creates a registry holding `plugins`.
    /// - Throws: ``RegistryError`` when one kind has two plugins of the same name.
    public init(_ plugins: [PluginDescriptor] = []) throws {
        for p in plugins { try register(p) }
    }

    /// Adds a plugin type.
    /// - Throws: ``RegistryError`` when the name is already taken within its kind.
    public mutating func register(_ plugin: PluginDescriptor) throws {
        if byKind[plugin.kind]?[plugin.typeName] != nil {
            throw RegistryError(message: "\(plugin.kind.rawValue) type '\(plugin.typeName)' is registered twice")
        }
        byKind[plugin.kind, default: [:]][plugin.typeName] = plugin
    }

    /// The plugin of `kind` named `type`.
    public func lookup(_ kind: PluginKind, _ type: String) -> PluginDescriptor? {
        byKind[kind]?[type]
    }

    /// Every plugin of `kind`, sorted by name.
    public func plugins(of kind: PluginKind) -> [PluginDescriptor] {
        (byKind[kind] ?? [:]).values.sorted { $0.typeName < $1.typeName }
    }

    /// Every plugin named `type`, of any kind.
    public func plugins(named type: String) -> [PluginDescriptor] {
        PluginKind.allCases.compactMap { lookup($0, type) }
    }

    /// Every plugin, by kind then name.
    public var all: [PluginDescriptor] { PluginKind.allCases.flatMap { plugins(of: $0) } }
}

/// A conflict while registering plugins.
public struct RegistryError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}
