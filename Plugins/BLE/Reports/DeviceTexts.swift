#if canImport(Glibc)
    import Glibc
#endif

/// The texts of the devices heard lately: each device's address and, while it repeats its
/// advertising data (a beacon sends the same bytes for hours), that data as hex.
///
/// Formatting these per report cost two string allocations per report, and at a million
/// reports a second the allocator, shared with the stage that frees the batches, was the
/// largest cost left. A device seen again gets the strings already made, which batches share.
/// Slots are picked by address, so a new device only replaces the one in its slot.
struct DeviceTexts {
    private struct Entry {
        /// The address as sent (6 bytes little-endian), `UInt64.max` for an empty slot.
        var key = UInt64.max
        var address = ""
        var data: [UInt8] = []
        var dataHex = ""
    }

    /// Texts of byte strings inside the data (UUIDs, manufacturer data), for the decoder.
    var hex = HexTexts()
    /// Made on first use: a source that is never read costs nothing.
    private var entries: [Entry] = []
    private static let slots = 64

    /// The address of `report`, most significant byte first.
    mutating func address(_ report: LEReport) -> String {
        guard let key = Self.key(report.address) else { return Hex.address(report.address) }
        let i = slot(key)
        if entries[i].key != key {
            entries[i].key = key
            entries[i].address = Hex.address(report.address)
            entries[i].data.removeAll(keepingCapacity: true)
            entries[i].dataHex = ""
        }
        return entries[i].address
    }

    /// The advertising data of `report` as hex; call ``address(_:)`` for the report first.
    /// Also sets ``HexTexts/dataChanged`` in ``hex`` for the decoding that follows.
    mutating func data(_ report: LEReport) -> String {
        guard let key = Self.key(report.address), case let i = slot(key), entries[i].key == key else {
            hex.dataChanged = true
            return Hex.string(report.data)
        }
        hex.dataChanged = !Self.equal(entries[i].data, report.data)
        if hex.dataChanged {
            entries[i].data.removeAll(keepingCapacity: true)
            entries[i].data.append(contentsOf: report.data)
            entries[i].dataHex = Hex.string(report.data)
        }
        return entries[i].dataHex
    }

    private mutating func slot(_ key: UInt64) -> Int {
        if entries.isEmpty { entries = Array(repeating: Entry(), count: Self.slots) }
        // Fibonacci hashing: the top bits of the product mix every byte of the address.
        return Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// The address as a number, `nil` when it is not 6 bytes long (never, from a report).
    private static func key(_ address: UnsafeRawBufferPointer) -> UInt64? {
        guard address.count == 6 else { return nil }
        var k: UInt64 = 0
        for i in 0..<6 { k |= UInt64(address[i]) << (8 * UInt64(i)) }
        return k
    }

    private static func equal(_ a: [UInt8], _ b: UnsafeRawBufferPointer) -> Bool {
        guard a.count == b.count else { return false }
        guard let base = b.baseAddress else { return true }
        return a.withUnsafeBytes { memcmp($0.baseAddress!, base, b.count) == 0 }
    }
}
