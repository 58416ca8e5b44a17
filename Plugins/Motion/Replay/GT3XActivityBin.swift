import DAQCore

/// The samples of an old NHANES-layout `.gt3x` (GT3X+ and ActiSleep+ up to firmware 2.5.0):
/// `activity.bin` is one stream of 12-bit two's complement values, Y X Z, 36 bits a sample,
/// every sample from the start at the nominal rate, with no records, timestamps or idle sleep.
/// Read in chunks, so memory stays flat however long the recording.
final class GT3XActivityBin {
    private let stream: ZipEntryStream
    /// Bytes read and not yet passed: from the pair of the next sample on.
    private var buffer: [UInt8] = []
    /// The stream offset of `buffer[0]`.
    private var base = 0
    private var ended = false
    /// Samples decoded so far; sample `n` is at the start plus `n / rate`.
    private(set) var count = 0

    init(stream: ZipEntryStream) { self.stream = stream }

    /// Appends up to `limit` samples' counts to `out`, in order; `false` once no whole sample is
    /// left (a trailing half byte is the padding of an odd count, not a sample).
    func next(limit: Int, into out: inout [(x: Int16, y: Int16, z: Int16)]) throws -> Bool {
        for _ in 0..<limit {
            // Two samples share 9 bytes: the first takes 4½, the second starts mid-byte.
            let pair = (count >> 1) * 9
            let end = pair + (count & 1 == 0 ? 5 : 9)
            while end - base > buffer.count && !ended { try refill(keepingFrom: pair) }
            guard end - base <= buffer.count else { return false }
            out.append(Self.sample(buffer, at: pair - base, odd: count & 1 == 1))
            count += 1
        }
        return true
    }

    private func refill(keepingFrom offset: Int) throws {
        let drop = offset - base
        if drop > 0 {
            buffer.removeSubrange(0..<drop)
            base = offset
        }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
        if n == 0 { ended = true } else { buffer.append(contentsOf: chunk[..<n]) }
    }

    /// The first (`odd` false) or second sample of the pair at byte `at`.
    static func sample(_ b: [UInt8], at: Int, odd: Bool) -> (x: Int16, y: Int16, z: Int16) {
        if !odd {
            let y = GT3XReader.twelve(UInt16(b[at]) << 4 | UInt16(b[at + 1]) >> 4)
            let x = GT3XReader.twelve(UInt16(b[at + 1] & 0x0F) << 8 | UInt16(b[at + 2]))
            let z = GT3XReader.twelve(UInt16(b[at + 3]) << 4 | UInt16(b[at + 4]) >> 4)
            return (x, y, z)
        }
        let y = GT3XReader.twelve(UInt16(b[at + 4] & 0x0F) << 8 | UInt16(b[at + 5]))
        let x = GT3XReader.twelve(UInt16(b[at + 6]) << 4 | UInt16(b[at + 7]) >> 4)
        let z = GT3XReader.twelve(UInt16(b[at + 7] & 0x0F) << 8 | UInt16(b[at + 8]))
        return (x, y, z)
    }
}
