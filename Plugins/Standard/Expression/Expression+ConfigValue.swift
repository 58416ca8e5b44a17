import DAQCore

/// An `expression` key is parsed while the configuration is decoded, so a syntax error points
/// at the offending character of the key's value.
extension Expression: ConfigValue {
    public static var configType: String { "expression" }
    public var configText: String? { text }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let parsed: Expression
        do {
            parsed = try Expression(text)
        } catch {
            let key = decoder.codingPath.map(\.stringValue).joined(separator: ".")
            throw ConfigIssue(key: key, error.message, offset: error.offset)
        }
        self = parsed
    }
}
