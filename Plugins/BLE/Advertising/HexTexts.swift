#if canImport(Glibc)
    import Glibc
#endif

/// Hex texts of byte strings seen lately: a beacon's UUID, its manufacturer data, a Ruuvi
/// tag's MAC, are the same bytes report after report.
///
/// Formatting them per report cost a string allocation each, and the allocator, shared with
/// the stage that frees the batches, was the largest cost left in decoding. Slots are picked
/// by a hash of the bytes and how they are written; a text is reused only when both match.
struct HexTexts {
    /// How the bytes are written.
    enum Style: UInt8 {
        case plain, uuid, colons
    }

    private struct Entry {
        var style = Style.plain
        var bytes: [UInt8] = []
        var text = ""
    }

    /// Whether the report being decoded carries other advertising data than its device's last
    /// report. A sensor beacon (Ruuvi) changes its manufacturer data in every report; looking
    /// that up here, only to miss and replace a slot, cost more than formatting it.
    var dataChanged = true

    /// Made on first use.
    private var entries: [Entry] = []
    private static let slots = 64
    /// Longer byte strings are rare and seldom repeat; they are formatted every time.
    private static let longest = 32

    /// `bytes` written in `style`.
    mutating func text(_ bytes: Slice<UnsafeRawBufferPointer>, _ style: Style) -> String {
        let b = UnsafeRawBufferPointer(rebasing: bytes)
        guard b.count <= Self.longest, let base = b.baseAddress else { return Self.format(bytes, style) }
        if entries.isEmpty { entries = Array(repeating: Entry(), count: Self.slots) }
        // Eight bytes a step, each word multiplied in and folded (a byte a step, as FNV goes,
        // was a chain of 24 dependent multiplies for a Ruuvi payload); the top bits pick the slot.
        var h: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(style.rawValue) ^ UInt64(b.count) << 8
        var k = 0
        while k + 8 <= b.count {
            h = (h ^ b.loadUnaligned(fromByteOffset: k, as: UInt64.self)) &* 0x9E37_79B9_7F4A_7C15
            h ^= h >> 29
            k += 8
        }
        var tail: UInt64 = 0
        while k < b.count {
            tail = tail << 8 | UInt64(b[k])
            k += 1
        }
        h = (h ^ tail) &* 0x9E37_79B9_7F4A_7C15
        let i = Int(truncatingIfNeeded: h >> 58)
        if !b.isEmpty, entries[i].style == style, entries[i].bytes.count == b.count,
            entries[i].bytes.withUnsafeBytes({ memcmp($0.baseAddress!, base, b.count) == 0 })
        {
            return entries[i].text
        }
        let text = Self.format(bytes, style)
        entries[i].style = style
        entries[i].bytes.removeAll(keepingCapacity: true)
        entries[i].bytes.append(contentsOf: b)
        entries[i].text = text
        return text
    }

    private static func format(_ bytes: Slice<UnsafeRawBufferPointer>, _ style: Style) -> String {
        switch style {
        case .plain: return Hex.string(bytes)
        case .uuid: return Hex.uuid(bytes)
        case .colons: return Hex.string(bytes, separator: UInt8(ascii: ":"))
        }
    }
}
