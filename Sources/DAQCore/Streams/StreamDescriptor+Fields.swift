/// A descriptor as JSON sees it: the manifest's `streams`, `daq describe --json`, `daq tap`'s
/// descriptor lines and the exec protocol's declaration all use this one shape.
///
/// ```json
/// {"fields": [{"name": "x", "type": "double", "unit": "g"}], "rate_hz": 100,
///  "time_base": "recorded", "time_zone": "Europe/Berlin",
///  "origin": {"plugin": "motion.replay", "device": "AX3", "serial": "12345"}, "metadata": {}}
/// ```
extension StreamDescriptor {
    /// The descriptor as JSON-ready fields; parts that are unknown are left out, but for
    /// `rate_hz` (`null`: irregular) and `fields`.
    public var jsonFields: Fields {
        var f = Fields()
        f["fields"] = .array(fields.map { .object($0.jsonFields) })
        f["rate_hz"] = rate.hz.map(Value.double) ?? .null
        f["time_base"] = .string(timeBase.rawValue)
        if let timeZone { f["time_zone"] = .string(timeZone) }
        let o = origin.jsonFields
        if o.count > 0 { f["origin"] = .object(o) }
        if !metadata.isEmpty {
            f["metadata"] = .object(Fields(metadata.keys.sorted().map { ($0, .string(metadata[$0]!)) }))
        }
        return f
    }

    /// Reads a descriptor from its JSON shape (``jsonFields``); `fields` is required, the rest
    /// optional (an irregular rate, the run's time base, no zone).
    /// - Throws: ``DescriptorFormatError`` naming the key that is wrong.
    public init(json: Value) throws {
        guard case .object(let f) = json else { throw DescriptorFormatError("a descriptor must be an object") }
        let known: Set<String> = ["fields", "rate_hz", "time_base", "time_zone", "origin", "metadata"]
        if let unknown = f.keys.first(where: { !known.contains($0) }) {
            throw DescriptorFormatError("unknown key '\(unknown)' (expected \(known.sorted().joined(separator: ", ")))")
        }
        guard case .array(let list)? = f["fields"] else {
            throw DescriptorFormatError("'fields' must be an array of {\"name\", \"type\", \"unit\"}")
        }
        self.init()
        for (i, item) in list.enumerated() { fields.append(try FieldDescriptor(json: item, index: i)) }
        switch f["rate_hz"] {
        case nil, .null?: rate = .irregular
        case let v? where (v.doubleValue ?? 0) > 0 && v.doubleValue!.isFinite: rate = .hz(v.doubleValue!)
        default: throw DescriptorFormatError("'rate_hz' must be a positive number or null")
        }
        if let v = f["time_base"] {
            guard let s = v.stringValue, let base = TimeBase(rawValue: s) else {
                throw DescriptorFormatError("'time_base' must be one of recorded, elapsed, run")
            }
            timeBase = base
        }
        if let v = f["time_zone"], !v.isNull {
            guard let s = v.stringValue else { throw DescriptorFormatError("'time_zone' must be text") }
            timeZone = s
        }
        if let v = f["origin"], !v.isNull { origin = try StreamOrigin(json: v) }
        if case .object(let m)? = f["metadata"] {
            for (k, v) in zip(m.keys, m.values) {
                guard let s = v.stringValue else { throw DescriptorFormatError("metadata '\(k)' must be text") }
                metadata[k] = s
            }
        }
    }
}

extension FieldDescriptor {
    /// `{"name", "type", "unit", "label"}`, unit and label only when known.
    public var jsonFields: Fields {
        var f: Fields = ["name": .string(name), "type": .string(type.rawValue)]
        if let unit { f["unit"] = .string(unit) }
        if let label { f["label"] = .string(label) }
        return f
    }

    init(json: Value, index: Int) throws {
        guard case .object(let f) = json, let name = f["name"]?.stringValue, !name.isEmpty else {
            throw DescriptorFormatError("fields[\(index)] must be an object with a non-empty \"name\"")
        }
        let typeName = f["type"]?.stringValue ?? "any"
        guard let type = FieldType(rawValue: typeName) else {
            let names = FieldType.allCases.map(\.rawValue).joined(separator: ", ")
            throw DescriptorFormatError("fields[\(index)] (\(name)): unknown type '\(typeName)' (expected \(names))")
        }
        self.init(name, type, unit: f["unit"]?.stringValue, label: f["label"]?.stringValue)
    }
}

extension StreamOrigin {
    /// The parts that are known, by their JSON names.
    public var jsonFields: Fields {
        var f = Fields()
        let parts: [(String, String?)] = [
            ("plugin", plugin), ("device", device), ("serial", serial), ("file", file), ("host", host),
            ("source_id", sourceID),
        ]
        for (key, value) in parts { if let value { f[key] = .string(value) } }
        return f
    }

    init(json: Value) throws {
        guard case .object(let f) = json else { throw DescriptorFormatError("'origin' must be an object") }
        func text(_ key: String) throws -> String? {
            guard let v = f[key], !v.isNull else { return nil }
            guard let s = v.stringValue else { throw DescriptorFormatError("origin '\(key)' must be text") }
            return s
        }
        self.init(
            plugin: try text("plugin"), device: try text("device"), serial: try text("serial"), file: try text("file"),
            host: try text("host"), sourceID: try text("source_id"))
    }
}

/// A descriptor in JSON that does not have the shape ``StreamDescriptor/jsonFields`` gives.
public struct DescriptorFormatError: Error, CustomStringConvertible, Sendable {
    /// What is wrong, naming the key.
    public let description: String

    init(_ description: String) { self.description = description }
}
