import DAQCore

/// A vendor's manufacturer data described in YAML instead of Swift: the company identifier,
/// optionally a byte prefix to match, then fields at offsets after the company identifier.
///
/// ```yaml
/// decoders:
///   - company_id: 0x0059
///     name: acme.sensor
///     match: "0102"
///     fields:
///       - {name: temperature, offset: 2, type: i16le, scale: 0.01, unit: "°C"}
/// ```
public struct ManufacturerDecoder: Decodable, Sendable, Hashable {
    /// A value's layout in the payload.
    public enum FieldType: String, Decodable, Sendable, CaseIterable {
        case u8, i8, u16le, u16be, i16le, i16be, u32le, u32be, i32le, i32be, f32le, f32be

        var size: Int {
            switch self {
            case .u8, .i8: return 1
            case .u16le, .u16be, .i16le, .i16be: return 2
            default: return 4
            }
        }
    }

    /// One value of the payload.
    public struct Field: Decodable, Sendable, Hashable {
        public var name: String
        public var offset: Int
        public var type: FieldType
        public var scale: Double?
        public var unit: String?
    }

    public let companyID: Int
    public let name: String
    public let match: String?
    public let fields: [Field]
    /// `match` as bytes and each field's `name.field` key, made once: decoding must not
    /// build them again for every report.
    private let prefix: [UInt8]
    private let keys: [String]

    enum CodingKeys: String, CodingKey {
        case companyID = "company_id"
        case name, match, fields
    }

    public init(companyID: Int, name: String, match: String?, fields: [Field]) {
        self.companyID = companyID
        self.name = name
        self.match = match
        self.fields = fields
        prefix = match.flatMap(Hex.bytes) ?? []
        keys = fields.map { name + "." + $0.name }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            companyID: c.decode(Int.self, forKey: .companyID), name: c.decode(String.self, forKey: .name),
            match: c.decodeIfPresent(String.self, forKey: .match), fields: c.decode([Field].self, forKey: .fields))
    }

    /// The checks the types cannot make, as ``ConfigIssue``s under `decoders[i]`.
    func validate(index: Int) throws {
        let key = "decoders.\(index)"
        if !(0...0xFFFF).contains(companyID) {
            throw ConfigIssue(key: key + ".company_id", "expected 0…0xFFFF, found \(companyID)")
        }
        if name.isEmpty { throw ConfigIssue(key: key + ".name", "must not be empty") }
        if let match, Hex.bytes(match) == nil {
            throw ConfigIssue(key: key + ".match", "expected hex bytes such as \"0102\", found '\(match)'")
        }
        for (j, f) in fields.enumerated() where f.offset < 0 {
            throw ConfigIssue(key: key + ".fields.\(j).offset", "must be 0 or more")
        }
    }

    func matches(company: UInt16, _ payload: UnsafeRawBufferPointer) -> Bool {
        guard Int(company) == companyID else { return false }
        return payload.count >= prefix.count && zip(payload, prefix).allSatisfy { $0 == $1 }
    }

    func decode(
        _ p: UnsafeRawBufferPointer, at offset: Int, into f: inout some ReportWriter, frames: inout FrameList,
        errors: inout [Value]
    ) {
        frames.append(.named(name))
        for (field, key) in zip(fields, keys) {
            guard let v = Self.read(field.type, p, field.offset) else {
                errors.append(
                    .string(
                        "offset \(offset + field.offset): \(name).\(field.name) (\(field.type.rawValue)) runs past the end of \(p.count) bytes"
                    ))
                continue
            }
            if let scale = field.scale {
                f.set(named: key, .double(v * scale))
            } else if field.type == .f32le || field.type == .f32be {
                f.set(named: key, .double(v))
            } else {
                f.set(named: key, .int(Int64(v)))
            }
        }
    }

    static func read(_ type: FieldType, _ p: UnsafeRawBufferPointer, _ i: Int) -> Double? {
        switch type {
        case .u8: return p.u8(i).map(Double.init)
        case .i8: return p.i8(i).map(Double.init)
        case .u16le: return p.u16le(i).map(Double.init)
        case .u16be: return p.u16be(i).map(Double.init)
        case .i16le: return p.u16le(i).map { Double(Int16(bitPattern: $0)) }
        case .i16be: return p.u16be(i).map { Double(Int16(bitPattern: $0)) }
        case .u32le: return p.u32le(i).map(Double.init)
        case .u32be: return p.u32be(i).map(Double.init)
        case .i32le: return p.u32le(i).map { Double(Int32(bitPattern: $0)) }
        case .i32be: return p.u32be(i).map { Double(Int32(bitPattern: $0)) }
        case .f32le: return p.u32le(i).map { Double(Float(bitPattern: $0)) }
        case .f32be: return p.u32be(i).map { Double(Float(bitPattern: $0)) }
        }
    }
}
