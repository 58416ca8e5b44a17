/// Reads Thrift's compact protocol into a generic tree, enough to read a Parquet footer back
/// without a generated class per structure: a struct is its fields by id, a list its elements.
struct ThriftCompactReader {
    /// A value read, whatever its declared type.
    indirect enum Value: Sendable {
        case int(Int64)
        case bool(Bool)
        case double(Double)
        case binary([UInt8])
        case list([Value])
        case structure([Int16: Value])

        var int: Int64? { if case .int(let v) = self { v } else { nil } }
        var bool: Bool? { if case .bool(let v) = self { v } else { nil } }
        var binary: [UInt8]? { if case .binary(let v) = self { v } else { nil } }
        var string: String? { binary.map { String(decoding: $0, as: UTF8.self) } }
        var list: [Value] { if case .list(let v) = self { v } else { [] } }
        subscript(_ id: Int16) -> Value? { if case .structure(let f) = self { f[id] } else { nil } }
    }

    /// The data was not a compact-protocol struct.
    struct Malformed: Error, CustomStringConvertible {
        var description: String
    }

    private let bytes: [UInt8]
    private var position = 0
    /// Nesting beyond this is refused: a footer is a few levels deep, and a corrupt file must not
    /// exhaust the stack.
    private static let maxDepth = 64

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// Reads one struct from the start.
    mutating func readStruct() throws -> Value {
        try readStruct(depth: 0)
    }

    private mutating func readStruct(depth: Int) throws -> Value {
        guard depth < Self.maxDepth else { throw Malformed(description: "nested too deeply") }
        var fields: [Int16: Value] = [:]
        var last: Int16 = 0
        while true {
            let header = try byte()
            if header == 0 { return .structure(fields) }
            let type = header & 0x0F
            let delta = header >> 4
            let id: Int16
            if delta != 0 {
                id = last &+ Int16(delta)
            } else {
                id = Int16(truncatingIfNeeded: try zigzag())
            }
            last = id
            switch type {
            case 1: fields[id] = .bool(true)
            case 2: fields[id] = .bool(false)
            default: fields[id] = try readValue(type: type, depth: depth)
            }
        }
    }

    private mutating func readValue(type: UInt8, depth: Int) throws -> Value {
        switch type {
        case 1, 2: return .bool(try byte() == 1)
        case 3: return .int(Int64(Int8(bitPattern: try byte())))
        case 4, 5, 6: return .int(try zigzag())
        case 7:
            var bits: UInt64 = 0
            for i in 0..<8 { bits |= UInt64(try byte()) << (8 * i) }
            return .double(Double(bitPattern: bits))
        case 8:
            let count = Int(try varint())
            guard count <= bytes.count - position else { throw Malformed(description: "a string runs past the end") }
            defer { position += count }
            return .binary(Array(bytes[position..<(position + count)]))
        case 9, 10:
            let header = try byte()
            var count = Int(header >> 4)
            if count == 15 { count = Int(try varint()) }
            guard count <= bytes.count - position else { throw Malformed(description: "a list runs past the end") }
            var items: [Value] = []
            for _ in 0..<count { items.append(try readValue(type: header & 0x0F, depth: depth + 1)) }
            return .list(items)
        case 12: return try readStruct(depth: depth + 1)
        default: throw Malformed(description: "unknown type \(type) at byte \(position)")
        }
    }

    private mutating func byte() throws -> UInt8 {
        guard position < bytes.count else { throw Malformed(description: "ends early") }
        defer { position += 1 }
        return bytes[position]
    }

    private mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let b = try byte()
            result |= UInt64(b & 0x7F) << shift
            if b & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw Malformed(description: "a varint is too long") }
        }
    }

    private mutating func zigzag() throws -> Int64 {
        let v = try varint()
        return Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1)))
    }
}
