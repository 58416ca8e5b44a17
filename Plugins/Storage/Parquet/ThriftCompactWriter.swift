/// Writes Thrift's compact protocol, the encoding of every Parquet metadata structure (page
/// headers and the footer).
///
/// Only what Parquet's metadata uses is here: structs (and unions, which are structs with one
/// field set), i32/i64 as zigzag varints, booleans folded into the field header, binary, and
/// lists. Field ids go as deltas from the previous field of the same struct, so a struct's fields
/// must be written in increasing id order; ``beginStruct()`` and ``endStruct()`` keep that
/// previous id per nesting level.
struct ThriftCompactWriter {
    /// The compact protocol's type codes.
    enum TypeCode: UInt8 {
        case boolTrue = 1
        case boolFalse = 2
        case byte = 3
        case i16 = 4
        case i32 = 5
        case i64 = 6
        case double = 7
        case binary = 8
        case list = 9
        case set = 10
        case map = 11
        case structure = 12
    }

    private(set) var bytes: [UInt8] = []
    private var lastFieldID: Int16 = 0
    private var outerFieldIDs: [Int16] = []

    init() {}

    /// Starts a nested struct as the value of the field just written, or as a list element.
    mutating func beginStruct() {
        outerFieldIDs.append(lastFieldID)
        lastFieldID = 0
    }

    /// Writes the STOP byte of the current struct and returns to the enclosing one.
    mutating func endStruct() {
        bytes.append(0)
        lastFieldID = outerFieldIDs.popLast() ?? 0
    }

    /// Writes a field header: the id as a delta in the high nibble when it fits, else in full.
    mutating func fieldHeader(_ id: Int16, _ type: TypeCode) {
        let delta = Int(id) - Int(lastFieldID)
        if delta > 0 && delta <= 15 {
            bytes.append(UInt8(delta) << 4 | type.rawValue)
        } else {
            bytes.append(type.rawValue)
            appendVarint(zigzag(Int64(id)))
        }
        lastFieldID = id
    }

    mutating func field(_ id: Int16, i32 value: Int32) {
        fieldHeader(id, .i32)
        appendVarint(zigzag(Int64(value)))
    }

    mutating func field(_ id: Int16, i64 value: Int64) {
        fieldHeader(id, .i64)
        appendVarint(zigzag(value))
    }

    mutating func field(_ id: Int16, bool value: Bool) {
        fieldHeader(id, value ? .boolTrue : .boolFalse)
    }

    mutating func field(_ id: Int16, binary value: some Collection<UInt8>) {
        fieldHeader(id, .binary)
        appendVarint(UInt64(value.count))
        bytes.append(contentsOf: value)
    }

    mutating func field(_ id: Int16, string value: String) {
        field(id, binary: Array(value.utf8))
    }

    /// Writes a field holding a struct: `body` writes the struct's fields.
    mutating func field(_ id: Int16, struct body: (inout ThriftCompactWriter) -> Void) {
        fieldHeader(id, .structure)
        beginStruct()
        body(&self)
        endStruct()
    }

    /// Writes a field holding an empty struct: a union member that carries no data.
    mutating func field(_ id: Int16, emptyStruct: Void) {
        field(id) { _ in }
    }

    /// Writes the header of a list field of `count` elements of `type`; the caller writes them.
    mutating func listField(_ id: Int16, of type: TypeCode, count: Int) {
        fieldHeader(id, .list)
        if count < 15 {
            bytes.append(UInt8(count) << 4 | type.rawValue)
        } else {
            bytes.append(0xF0 | type.rawValue)
            appendVarint(UInt64(count))
        }
    }

    /// Writes a list element of type i32 (Parquet's enums).
    mutating func element(i32 value: Int32) {
        appendVarint(zigzag(Int64(value)))
    }

    /// Writes a list element of type binary.
    mutating func element(string value: String) {
        let utf8 = Array(value.utf8)
        appendVarint(UInt64(utf8.count))
        bytes.append(contentsOf: utf8)
    }

    /// Writes a list element that is a struct.
    mutating func element(struct body: (inout ThriftCompactWriter) -> Void) {
        beginStruct()
        body(&self)
        endStruct()
    }

    private func zigzag(_ n: Int64) -> UInt64 {
        UInt64(bitPattern: (n << 1) ^ (n >> 63))
    }

    private mutating func appendVarint(_ value: UInt64) {
        var v = value
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }
}
