/// The RLE / bit-packed hybrid encoding of Parquet's definition levels and dictionary indices.
///
/// A run of eight or more equal values becomes an RLE run (`count << 1`, then the value in
/// `⌈bitWidth / 8⌉` bytes); anything else goes into bit-packed runs of groups of eight values
/// (`groups << 1 | 1`, then the values packed LSB first). A bit-packed run that is not the last
/// borrows values from the run after it to fill its last group, since only the end of the data
/// may be padded.
enum RLEHybrid {
    /// The bits needed for values up to `maxValue`, at least 1.
    static func bitWidth(forMax maxValue: UInt32) -> Int {
        max(1, 32 - maxValue.leadingZeroBitCount)
    }

    /// Appends the encoding of `values` (each below `1 << bitWidth`).
    static func encode(
        _ values: UnsafeBufferPointer<UInt32>, bitWidth: Int, to out: inout [UInt8]
    ) {
        let n = values.count
        var i = 0
        while i < n {
            let run = runLength(values, at: i)
            if run >= 8 {
                appendRLE(count: run, value: values[i], bitWidth: bitWidth, to: &out)
                i += run
                continue
            }
            // Gather values until a long run starts, then round up to whole groups of eight.
            var end = i + run
            while end < n {
                let next = runLength(values, at: end)
                if next >= 8 { break }
                end += next
            }
            let padded = (end - i + 7) / 8 * 8
            let taken = min(padded, n - i)
            appendBitPacked(values, from: i, count: taken, groups: padded / 8, bitWidth: bitWidth, to: &out)
            i += taken
        }
    }

    /// Appends the encoding of `values` held as bytes (definition levels).
    static func encode(levels: ArraySlice<UInt8>, bitWidth: Int, to out: inout [UInt8]) {
        let widened = levels.map { UInt32($0) }
        widened.withUnsafeBufferPointer { encode($0, bitWidth: bitWidth, to: &out) }
    }

    private static func runLength(_ values: UnsafeBufferPointer<UInt32>, at start: Int) -> Int {
        let v = values[start]
        var j = start + 1
        while j < values.count && values[j] == v { j += 1 }
        return j - start
    }

    private static func appendRLE(count: Int, value: UInt32, bitWidth: Int, to out: inout [UInt8]) {
        appendVarint(UInt64(count) << 1, to: &out)
        for byte in 0..<((bitWidth + 7) / 8) { out.append(UInt8(truncatingIfNeeded: value >> (8 * byte))) }
    }

    private static func appendBitPacked(
        _ values: UnsafeBufferPointer<UInt32>, from start: Int, count: Int, groups: Int, bitWidth: Int,
        to out: inout [UInt8]
    ) {
        appendVarint(UInt64(groups) << 1 | 1, to: &out)
        var accumulator: UInt64 = 0
        var bits = 0
        for k in 0..<(groups * 8) {
            let v = k < count ? UInt64(values[start + k]) : 0
            accumulator |= v << bits
            bits += bitWidth
            while bits >= 8 {
                out.append(UInt8(truncatingIfNeeded: accumulator))
                accumulator >>= 8
                bits -= 8
            }
        }
        // Eight values of any width fill whole bytes, so nothing is left over.
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }
}
