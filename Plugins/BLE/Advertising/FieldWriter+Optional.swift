import DAQCore

extension FieldWriter {
    /// Writes `value`, or null when the beacon says it has none (a "not available" code).
    mutating func set(_ key: String, int value: Int64?) {
        if let value { set(key, int: value) } else { self[key] = .null }
    }

    mutating func set(_ key: String, double value: Double?) {
        if let value { set(key, double: value) } else { self[key] = .null }
    }

    mutating func set(_ key: String, string value: String?) {
        if let value { set(key, string: value) } else { self[key] = .null }
    }
}
