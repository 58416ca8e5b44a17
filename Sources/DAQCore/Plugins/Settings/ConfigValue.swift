/// A type a configuration key can hold, and how `daq plugins describe` shows it.
///
/// Strings, numbers, booleans, ``Seconds``, ``ConfigEnum``s, lists, string-keyed maps,
/// optionals and ``SettingGroup``s conform; a plugin's own value type conforms by naming its
/// type text in the grammar of ``ConfigValueType``.
public protocol ConfigValue: Decodable, Sendable {
    /// The type text, such as `string`, `[int]` or `fail | skip`.
    static var configType: String { get }
    /// The value as YAML text for the default column; `nil` shows no default (an empty string
    /// or list means "unset" to every built-in key).
    var configText: String? { get }
}

extension String: ConfigValue {
    public static var configType: String { "string" }
    public var configText: String? { isEmpty ? nil : self }
}

extension Int: ConfigValue {
    public static var configType: String { "int" }
    public var configText: String? { String(self) }
}

extension Double: ConfigValue {
    public static var configType: String { "double" }
    public var configText: String? { ConfigNumberText.text(self) }
}

extension Bool: ConfigValue {
    public static var configType: String { "bool" }
    public var configText: String? { self ? "true" : "false" }
}

extension Seconds: ConfigValue {
    public static var configType: String { "seconds" }
    /// `0 s`, `250 ms`, `2 s`: what users write, in the unit that keeps the number whole.
    public var configText: String? {
        if value != 0, abs(value) < 1 { return ConfigNumberText.text(value * 1000) + " ms" }
        return ConfigNumberText.text(value) + " s"
    }
}

extension Optional: ConfigValue where Wrapped: ConfigValue {
    public static var configType: String { Wrapped.configType }
    public var configText: String? { self?.configText }
}

extension Array: ConfigValue where Element: ConfigValue {
    public static var configType: String { "[\(Element.configType)]" }
    public var configText: String? {
        isEmpty ? nil : "[" + map { $0.configText ?? "null" }.joined(separator: ", ") + "]"
    }
}

extension Dictionary: ConfigValue where Key == String, Value: ConfigValue {
    public static var configType: String { "{string: \(Value.configType)}" }
    public var configText: String? {
        isEmpty
            ? nil
            : "{"
                + sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.configText ?? "null")" }
                .joined(separator: ", ") + "}"
    }
}

extension ConfigEnum {
    public static var configType: String { choices }
    public var configText: String? { rawValue }
}

/// Numbers as the default column shows them: `2`, not `2.0`.
enum ConfigNumberText {
    static func text(_ value: Double) -> String {
        if value.rounded() == value, abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }
}
