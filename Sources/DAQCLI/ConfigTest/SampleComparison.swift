import DAQCore

/// Compares the samples a case lists with those that came out, field by field; numbers may
/// differ by `tolerance`, absolute or relative to their size, whichever is larger.
struct SampleComparison {
    var tolerance: Double

    /// The first difference, at the line of the field (or sample) that differs.
    func compare(_ expected: [ExpectedSample], _ actual: [Sample], key: String, place: Place) -> Failure? {
        for (i, e) in expected.enumerated() {
            guard i < actual.count else {
                return Failure(
                    place: e.place, key: "\(key)[\(i)]", expected: "\(expected.count) samples",
                    actual: "\(actual.count) samples; none matches this one")
            }
            for field in e.fields {
                let value = Self.value(field.name, of: actual[i])
                if !matches(field.value, value) {
                    return Failure(
                        place: field.place, key: "\(key)[\(i)].\(field.name)",
                        expected: SampleText.value(field.value)
                            + (field.value.doubleValue != nil && tolerance > 0 ? " (±\(tolerance))" : ""),
                        actual: (value.map(SampleText.value) ?? "no such field") + " in \(SampleText.sample(actual[i]))"
                    )
                }
            }
        }
        if actual.count > expected.count {
            return Failure(
                place: place, key: key, expected: "\(expected.count) samples",
                actual: "\(actual.count) samples; the first extra one: \(SampleText.sample(actual[expected.count]))")
        }
        return nil
    }

    /// A field, or the metadata of that name.
    static func value(_ name: String, of s: Sample) -> Value? {
        if let v = s.fields[name] { return v }
        switch name {
        case "uptime": return .double(s.uptime)
        case "timestamp": return .double(s.timestamp)
        case "stepPath": return .string(s.stepPath)
        case "stream": return .string(s.stream)
        case "kind": return .string(s.kind.name)
        default: return nil
        }
    }

    func matches(_ expected: Value, _ actual: Value?) -> Bool {
        guard let actual else { return expected == .null }
        switch (expected, actual) {
        case (.int, .int), (.bool, .bool), (.string, .string), (.null, .null), (.bytes, .bytes):
            return expected == actual
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { matches($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.pairs.allSatisfy { k, v in matches(v, b[k]) }
        case (.string(let hex), .bytes(let bytes)):
            // Raw payloads are written as hex in YAML.
            return HexBytes.decode(hex) == bytes
        default:
            guard let x = expected.doubleValue, let y = actual.doubleValue else { return false }
            if x.isNaN || y.isNaN { return x.isNaN && y.isNaN }
            return abs(x - y) <= tolerance * Swift.max(1, abs(x), abs(y))
        }
    }
}
