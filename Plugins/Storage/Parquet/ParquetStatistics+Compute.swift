extension ParquetStatistics {
    /// Text longer than this keeps no min or max: statistics are for skipping row groups, and
    /// a truncated bound would have to be flagged inexact.
    static let maxTextBound = 256

    /// The statistics of what `buffer` holds.
    static func of(_ buffer: ParquetColumnBuffer) -> ParquetStatistics {
        var s = ParquetStatistics(min: nil, max: nil, nullCount: Int64(buffer.nullCount))
        switch buffer.schema.type {
        case .double:
            // NaN orders with nothing, so it is left out; ±0 bounds are widened to both zeros,
            // as the format asks, since -0.0 == 0.0.
            var lo = Double.infinity
            var hi = -Double.infinity
            var any = false
            for v in buffer.doubles where !v.isNaN {
                any = true
                if v < lo { lo = v }
                if v > hi { hi = v }
            }
            if any {
                if lo == 0 { lo = -0.0 }
                if hi == 0 { hi = 0.0 }
                s.min = plain(lo.bitPattern)
                s.max = plain(hi.bitPattern)
            }
        case .int64:
            if let lo = buffer.ints.min(), let hi = buffer.ints.max() {
                s.min = plain(UInt64(bitPattern: lo))
                s.max = plain(UInt64(bitPattern: hi))
            }
        case .boolean:
            if !buffer.bools.isEmpty {
                s.min = [buffer.bools.contains(false) ? 0 : 1]
                s.max = [buffer.bools.contains(true) ? 1 : 0]
            }
        case .byteArray:
            setTextBounds(&s, buffer)
        }
        return s
    }

    private static func setTextBounds(_ s: inout ParquetStatistics, _ buffer: ParquetColumnBuffer) {
        // Every dictionary entry is used by the chunk, so its bounds are the chunk's.
        var lo: [UInt8]?
        var hi: [UInt8]?
        func consider(_ bytes: some Collection<UInt8>) {
            if lo == nil || bytes.lexicographicallyPrecedes(lo!) { lo = Array(bytes) }
            if hi == nil || hi!.lexicographicallyPrecedes(bytes) { hi = Array(bytes) }
        }
        if buffer.isText {
            for e in buffer.entries { consider(e.utf8) }
        } else {
            for b in buffer.binaries { consider(b) }
        }
        if let lo, lo.count <= maxTextBound { s.min = lo }
        if let hi, hi.count <= maxTextBound { s.max = hi }
    }

    private static func plain(_ bits: UInt64) -> [UInt8] {
        (0..<8).map { UInt8(truncatingIfNeeded: bits >> (8 * $0)) }
    }
}
