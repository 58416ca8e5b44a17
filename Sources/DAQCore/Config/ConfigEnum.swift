import Foundation

/// A string enum in configuration: an unknown value is reported with the accepted ones and a
/// did-you-mean, instead of Swift's generic "cannot initialize" message.
public protocol ConfigEnum: RawRepresentable<String>, CaseIterable, ConfigValue {}

extension ConfigEnum {
    public init(from decoder: any Decoder) throws {
        let raw = try decoder.singleValueContainer().decode(String.self)
        if let value = Self(rawValue: raw) {
            self = value
            return
        }
        let names = Self.allCases.map(\.rawValue)
        var message = "unknown value '\(raw)'"
        if let guess = DidYouMean.best(raw, in: names) { message += " (did you mean '\(guess)'?)" }
        message += "; expected one of: \(names.joined(separator: ", "))"
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: message))
    }

    /// The accepted values as `daq plugins describe` prints them: `a | b | c`.
    public static var choices: String { allCases.map(\.rawValue).joined(separator: " | ") }
}

/// A duration in seconds, written as a number (`2.5`) or with a unit (`500ms`, `2s`, `5m`, `1h`).
public struct Seconds: Sendable, Hashable, Decodable, Comparable, ExpressibleByFloatLiteral,
    ExpressibleByIntegerLiteral
{
    /// The duration in seconds.
    public var value: Double

    /// Creates a duration.
    public init(_ value: Double) { self.value = value }
    public init(floatLiteral value: Double) { self.value = value }
    public init(integerLiteral value: Int) { self.value = Double(value) }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let d = try? c.decode(Double.self) {
            value = d
            return
        }
        let text = try c.decode(String.self)
        guard let parsed = Seconds.parse(text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected a duration such as 2.5, 500ms, 2s, 5m or 1h, found '\(text)'"))
        }
        value = parsed
    }

    /// Parses `500ms`, `2s`, `5m`, `1h` or a bare number of seconds.
    public static func parse(_ text: String) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces)
        let units: [(String, Double)] = [("ms", 0.001), ("us", 0.000_001), ("s", 1), ("m", 60), ("h", 3600)]
        for (suffix, scale) in units where t.hasSuffix(suffix) {
            if let n = Double(t.dropLast(suffix.count).trimmingCharacters(in: .whitespaces)) { return n * scale }
        }
        return Double(t)
    }

    public static func < (a: Seconds, b: Seconds) -> Bool { a.value < b.value }
}
