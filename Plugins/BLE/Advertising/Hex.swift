/// Hex text by table lookup: reports carry addresses, UUIDs and raw payloads, and decoding a
/// million reports a second leaves no room for formatting through `String(format:)`.
enum Hex {
    /// The upper-case hex digit of a nibble; arithmetic, not a table, so no global is touched.
    @inline(__always)
    static func digit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? 0x30 &+ nibble : 0x37 &+ nibble
    }

    /// `bytes` as upper-case hex, `separator` between bytes when given.
    static func string<C: Collection>(_ bytes: C, separator: UInt8? = nil) -> String where C.Element == UInt8 {
        guard let separator else { return format(bytes, separator: 0, separators: 0) { _ in false } }
        return format(bytes, separator: separator, separators: max(0, bytes.count - 1)) { $0 > 0 }
    }

    /// A 128-bit UUID in canonical form from 16 bytes in big-endian order.
    static func uuid<C: Collection>(_ bytes: C) -> String where C.Element == UInt8 {
        guard bytes.count == 16 else { return string(bytes) }
        return format(bytes, separator: UInt8(ascii: "-"), separators: 4) { $0 == 4 || $0 == 6 || $0 == 8 || $0 == 10 }
    }

    /// Hex of `bytes`, with `separator` before each byte index for which `before` holds
    /// (`separators` of them in all).
    @inline(__always)
    private static func format<C: Collection>(
        _ bytes: C, separator: UInt8, separators: Int, before: (Int) -> Bool
    ) -> String where C.Element == UInt8 {
        let n = bytes.count
        guard n > 0 else { return "" }
        return String(unsafeUninitializedCapacity: n * 2 + separators) { out in
            var i = 0
            for (k, b) in bytes.enumerated() {
                if before(k) {
                    out[i] = separator
                    i += 1
                }
                out[i] = digit(b >> 4)
                out[i + 1] = digit(b & 0x0F)
                i += 2
            }
            return i
        }
    }

    /// A device address, most significant byte first, from its 6 little-endian bytes on air.
    static func address<C: Collection>(_ littleEndian: C) -> String where C.Element == UInt8 {
        string(littleEndian.reversed(), separator: UInt8(ascii: ":"))
    }

    /// Bytes from hex text (`"0102"`, `"01:02"`); `nil` for anything else.
    static func bytes(_ text: String) -> [UInt8]? {
        let clean = text.utf8.filter { $0 != UInt8(ascii: ":") && $0 != UInt8(ascii: " ") }
        guard clean.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        var i = 0
        while i < clean.count {
            guard let hi = nibble(clean[i]), let lo = nibble(clean[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
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
