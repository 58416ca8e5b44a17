import DAQCore

/// Hex text by table lookup: reports carry addresses, UUIDs and raw payloads, and decoding a
/// million reports a second leaves no room for formatting through `String(format:)`.
enum Hex {
    /// The upper-case hex digit of a nibble; arithmetic, not a table, so no global is touched.
    @inline(__always)
    static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 &+ nibble : 0x37 &+ nibble
    }

    /// `bytes` as upper-case hex, `separator` between bytes when given.
    static func string(_ bytes: UnsafeRawBufferPointer, separator: UInt8? = nil) -> String {
        format(bytes, reversed: false, separator: separator)
    }

    static func string(_ bytes: Slice<UnsafeRawBufferPointer>, separator: UInt8? = nil) -> String {
        format(UnsafeRawBufferPointer(rebasing: bytes), reversed: false, separator: separator)
    }

    /// A number sent little-endian (a 32-bit UUID), written most significant byte first.
    static func string(littleEndian bytes: Slice<UnsafeRawBufferPointer>) -> String {
        format(UnsafeRawBufferPointer(rebasing: bytes), reversed: true)
    }

    static func string(_ bytes: [UInt8], separator: UInt8? = nil) -> String {
        bytes.withUnsafeBytes { format($0, reversed: false, separator: separator) }
    }

    /// A 128-bit UUID in canonical form from 16 bytes in big-endian order.
    static func uuid(_ bytes: Slice<UnsafeRawBufferPointer>) -> String {
        format(UnsafeRawBufferPointer(rebasing: bytes), reversed: false, uuid: true)
    }

    /// A 128-bit UUID in canonical form from 16 bytes sent little-endian.
    static func uuid(littleEndian bytes: Slice<UnsafeRawBufferPointer>) -> String {
        format(UnsafeRawBufferPointer(rebasing: bytes), reversed: true, uuid: true)
    }

    /// A device address, most significant byte first, from its 6 little-endian bytes on air.
    static func address(_ littleEndian: UnsafeRawBufferPointer) -> String {
        format(littleEndian, reversed: true, separator: UInt8(ascii: ":"))
    }

    /// Both digits of every byte value, the high one first in memory (as stored by
    /// ``format(_:reversed:separator:uuid:)``): one load per byte instead of two digit
    /// computations.
    private static let pairs: [UInt16] = (0...255).map { b in
        UInt16(digit(UInt8(b) >> 4)) | UInt16(digit(UInt8(b) & 0x0F)) << 8
    }

    /// The one formatter behind the others: reads the bytes in place, in either order, and
    /// writes the text straight into the string's storage. Generic collections and closures
    /// here cost more than the rest of a report's decoding.
    private static func format(
        _ bytes: UnsafeRawBufferPointer, reversed: Bool, separator: UInt8? = nil, uuid: Bool = false
    ) -> String {
        let n = bytes.count
        guard n > 0 else { return "" }
        // A UUID takes dashes before bytes 4, 6, 8 and 10, and only when it has all 16 bytes.
        let dashes = uuid && n == 16
        let separators = dashes ? 4 : separator == nil ? 0 : n - 1
        let mark = dashes ? UInt8(ascii: "-") : separator ?? 0
        return pairs.withUnsafeBufferPointer { pairs in
            String(unsafeUninitializedCapacity: n * 2 + separators) { out in
                let text = UnsafeMutableRawPointer(out.baseAddress!)
                if separators == 0 && !reversed {
                    // Raw payloads, the longest texts: no separator, bytes in order.
                    for k in 0..<n {
                        text.storeBytes(of: pairs[Int(bytes[k])].littleEndian, toByteOffset: 2 &* k, as: UInt16.self)
                    }
                    return 2 * n
                }
                var i = 0
                for k in 0..<n {
                    if separators > 0 && k > 0 && (!dashes || k == 4 || k == 6 || k == 8 || k == 10) {
                        text.storeBytes(of: mark, toByteOffset: i, as: UInt8.self)
                        i &+= 1
                    }
                    let b = bytes[reversed ? n &- 1 &- k : k]
                    text.storeBytes(of: pairs[Int(b)].littleEndian, toByteOffset: i, as: UInt16.self)
                    i &+= 2
                }
                return i
            }
        }
    }

    /// The bytes of hex text (DAQCore's ``HexBytes/decode(_:)``): pairs of digits, spaces and
    /// `:` allowed between them; `nil` for anything else.
    static func bytes(_ text: String) -> [UInt8]? {
        HexBytes.decode(text)
    }
}

/// Bounds-checked reads from report bytes: malformed input yields `nil`, never a trap.
extension UnsafeRawBufferPointer {
    func u8(_ i: Int) -> UInt8? { i >= 0 && i < count ? self[i] : nil }
    func i8(_ i: Int) -> Int8? { u8(i).map { Int8(bitPattern: $0) } }
    func u16le(_ i: Int) -> UInt16? { i >= 0 && i + 2 <= count ? UInt16(self[i]) | UInt16(self[i + 1]) << 8 : nil }
    func u16be(_ i: Int) -> UInt16? { i >= 0 && i + 2 <= count ? UInt16(self[i]) << 8 | UInt16(self[i + 1]) : nil }
    func u32be(_ i: Int) -> UInt32? {
        guard i >= 0 && i + 4 <= count else { return nil }
        return UInt32(self[i]) << 24 | UInt32(self[i + 1]) << 16 | UInt32(self[i + 2]) << 8 | UInt32(self[i + 3])
    }
    func u32le(_ i: Int) -> UInt32? {
        guard i >= 0 && i + 4 <= count else { return nil }
        return UInt32(self[i]) | UInt32(self[i + 1]) << 8 | UInt32(self[i + 2]) << 16 | UInt32(self[i + 3]) << 24
    }
    func slice(_ i: Int, _ n: Int) -> UnsafeRawBufferPointer? {
        i >= 0 && n >= 0 && i + n <= count ? UnsafeRawBufferPointer(rebasing: self[i..<(i + n)]) : nil
    }
}
