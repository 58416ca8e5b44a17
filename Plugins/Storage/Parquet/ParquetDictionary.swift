/// A column chunk's dictionary, when one pays: the dictionary page's PLAIN body, its entry
/// count, and each value's index into it.
///
/// Text is dictionary-coded as it is buffered (``ParquetColumnBuffer``). Numbers are tried when
/// the chunk is encoded: a quantized sensor (an accelerometer in 1/256 g steps), a count or a
/// flag-like double takes a few hundred distinct values, and indices of a few bits each beat
/// eight bytes a value before any codec runs. Continuous values are given up on early.
struct ParquetDictionary {
    var page: [UInt8]
    var count: Int
    var indices: [UInt32]

    /// Above this many entries or page bytes a chunk is written PLAIN: a large dictionary costs
    /// more than it saves, and readers must hold it whole.
    static let maxEntries = 1 << 16
    static let maxBytes = 1 << 20

    /// The dictionary of `buffer`, or `nil` when PLAIN is the better encoding. A chunk of nulls
    /// only gets none: an empty dictionary page is legal but rare, not worth every reader's risk.
    static func of(_ buffer: ParquetColumnBuffer) -> ParquetDictionary? {
        guard buffer.valueCount > 0 else { return nil }
        switch buffer.schema.type {
        case .byteArray where buffer.isText:
            guard buffer.entries.count <= maxEntries, buffer.dictionaryBytes <= maxBytes else { return nil }
            var page: [UInt8] = []
            page.reserveCapacity(buffer.dictionaryBytes + 4 * buffer.entries.count)
            for e in buffer.entries {
                appendLength(e.utf8.count, to: &page)
                var copy = e
                copy.withUTF8 { page.append(contentsOf: $0) }
            }
            return ParquetDictionary(page: page, count: buffer.entries.count, indices: buffer.indices)
        case .double: return numeric(buffer.doubles.lazy.map(\.bitPattern))
        case .int64: return numeric(buffer.ints.lazy.map { UInt64(bitPattern: $0) })
        case .boolean, .byteArray: return nil
        }
    }

    /// Values by bit pattern (so -0.0, 0.0 and each NaN stay what they were), when at most a
    /// quarter of them are distinct.
    private static func numeric<C: Collection>(_ bits: C) -> ParquetDictionary? where C.Element == UInt64 {
        let limit = min(maxEntries, bits.count / 4)
        // A first look: values that are nearly all different in their first 1,024 rarely repeat later.
        let probe = min(bits.count, 1_024)
        if probe >= 64, Set(bits.prefix(probe)).count > probe / 2 { return nil }
        var lookup: [UInt64: UInt32] = [:]
        var entries: [UInt64] = []
        var indices: [UInt32] = []
        indices.reserveCapacity(bits.count)
        for b in bits {
            if let i = lookup[b] {
                indices.append(i)
                continue
            }
            if entries.count == limit { return nil }
            let i = UInt32(entries.count)
            lookup[b] = i
            entries.append(b)
            indices.append(i)
        }
        var page: [UInt8] = []
        page.reserveCapacity(8 * entries.count)
        for e in entries {
            for k in 0..<8 { page.append(UInt8(truncatingIfNeeded: e >> (8 * k))) }
        }
        return ParquetDictionary(page: page, count: entries.count, indices: indices)
    }

    private static func appendLength(_ count: Int, to body: inout [UInt8]) {
        for i in 0..<4 { body.append(UInt8(truncatingIfNeeded: count >> (8 * i))) }
    }
}
