/// Declares one key of a plugin's configuration: its name, type, default and help, once.
///
/// Everything else derives from the declaration, as swift-argument-parser derives a command's
/// help and parsing from its `@Option`s: decoding from YAML (with line:column errors), the
/// unknown-key check with its did-you-mean, `daq plugins describe`, `daq plugins reference` and
/// `daq schema`. So a key described but never decoded, or decoded under another name, cannot
/// happen.
///
/// ```swift
/// public struct Configuration: PluginConfiguration {
///     @Setting("Field of the first axis.") var x = "x"
///     @Setting(required: "The file to read.") var path: String
///     @Setting(type: "double (Hz)", "When records carry no time: sample i is at i / rate.") var rate: Double?
/// }
/// ```
///
/// The YAML key is the property's name in snake case (`maxInFlight` is `max_in_flight`) unless
/// `key:` names it. The type shown is the value's ``ConfigValue/configType`` unless `type:`
/// refines it (a unit, `path`, `expression`). The default shown is the initial value, rendered by
/// ``ConfigValue/configText``; an optional key whose default is computed says how in `whenUnset:`.
/// In ``PluginConfiguration/validate()``, `$x.issue("…")` points the message at the key's line.
@propertyWrapper
public struct Setting<Value: ConfigValue>: Sendable {
    /// Where the value lives. Decoding fills it in place on a configuration nobody else holds
    /// yet; every later write replaces it, so copies of a configuration never share a change.
    final class Storage: @unchecked Sendable {
        var value: Value?
        /// The dotted path from the component, known once decoded: the key `issue` names.
        var path: String?
        /// Whether the YAML wrote the key, as against its default applying.
        var written = false

        init(_ value: Value?, path: String? = nil, written: Bool = false) {
            self.value = value
            self.path = path
            self.written = written
        }
    }

    var storage: Storage
    let declaration: SettingDeclaration

    /// The value; a required key read before decoding is a programming error.
    public var wrappedValue: Value {
        get {
            guard let value = storage.value else {
                preconditionFailure(
                    "the required key '\(storage.path ?? declaration.key ?? "?")' was read before decoding")
            }
            return value
        }
        set { storage = Storage(newValue, path: storage.path, written: storage.written) }
    }

    /// Whether the configuration wrote this key: a written `time_zone` overrides the zone a
    /// device file states, where the default would not.
    public var isWritten: Bool { storage.written }

    /// The declaration itself, for ``issue(_:offset:)``.
    public var projectedValue: Setting<Value> { self }

    /// A key with a default: the initial value.
    public init(wrappedValue: Value, key: String? = nil, type: String? = nil, _ help: String) {
        storage = Storage(wrappedValue)
        declaration = SettingDeclaration(key: key, type: type, help: help, required: false)
    }

    /// A key that must be given.
    public init(key: String? = nil, type: String? = nil, required help: String) {
        storage = Storage(nil)
        declaration = SettingDeclaration(key: key, type: type, help: help, required: true)
    }

    /// An optional key that is unset by default; `whenUnset` says what the plugin does then,
    /// for the default column (`5 s when triggered`).
    public init(key: String? = nil, type: String? = nil, whenUnset: String? = nil, _ help: String)
    where Value: ExpressibleByNilLiteral {
        storage = Storage(nil as Value)
        declaration = SettingDeclaration(key: key, type: type, help: help, required: false, whenUnset: whenUnset)
    }

    /// A problem with this key's value, located at the key's line and column.
    public func issue(_ message: String, offset: Int? = nil) -> ConfigIssue {
        ConfigIssue(key: storage.path ?? declaration.key ?? "", message, offset: offset)
    }
}

extension Setting: Equatable where Value: Equatable {
    public static func == (a: Setting, b: Setting) -> Bool { a.storage.value == b.storage.value }
}

extension Setting: Hashable where Value: Hashable {
    public func hash(into hasher: inout Hasher) { hasher.combine(storage.value) }
}

/// What a ``Setting`` says about itself, apart from its value.
struct SettingDeclaration: Sendable {
    var key: String?
    var type: String?
    var help: String
    var required: Bool
    var whenUnset: String?
}
