/// A set of ``Setting``s: a plugin's configuration, a group of keys several plugins share (MQTT
/// connection settings, scan sessions), or the value of one key that is a mapping
/// (`cache: {ttl, max_entries, path}`).
///
/// A group stored as a plain property of another group adds its keys at the same level; a group
/// held by a ``Setting`` is a nested mapping, and its unknown keys are refused with a
/// did-you-mean. Decoding starts from `init()`, so every key not written keeps its declared
/// default.
///
/// A configuration that needs more than keys (a key whose meaning depends on another) writes
/// its own `init(from:)`, starts it with ``readSettings(from:)``, then decodes the rest.
public protocol SettingGroup: ConfigValue {
    /// The group with every default.
    init()
}

extension SettingGroup {
    public init(from decoder: any Decoder) throws {
        self.init()
        try readSettings(from: decoder)
    }

    /// Fills every ``Setting`` of this group from `decoder`'s mapping.
    /// - Throws: `DecodingError` for a value of the wrong type or a required key that is missing.
    public func readSettings(from decoder: any Decoder) throws {
        try SettingsReader.read(self, from: decoder)
    }

    /// Every key, in declaration order, as `daq plugins describe` documents them.
    public static var declaredKeys: [ConfigKey] { SettingsReader.keys(of: Self()) }

    /// The value of the key named `key` (as YAML names it), default or decoded; `nil` when the
    /// group has no such key or it is unset. For tools that read another plugin's settings by
    /// name, as `daq batch` reads each sink's `path` to place it in a recording's folder.
    public func value(ofKey key: String) -> Any? {
        SettingsReader.settings(of: self).first { $0.key == key }?.setting.currentValue
    }
}

extension SettingGroup {
    public static var configType: String {
        "{" + SettingsReader.keys(of: Self()).map(\.name).joined(separator: ", ") + "}"
    }

    public var configText: String? {
        let shown = SettingsReader.keys(of: self).compactMap { k in k.defaultValue.map { "\(k.name): \($0)" } }
        return shown.isEmpty ? nil : "{" + shown.joined(separator: ", ") + "}"
    }
}
