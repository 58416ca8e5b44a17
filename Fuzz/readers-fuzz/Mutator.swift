// A structure-aware mutation for the gt3x target: libFuzzer's own byte flips rarely land a
// 64-bit extreme in a zip64 record or `inf` in info.txt, which is what trapped the reader in
// issue 39. Half the time a gt3x input gets one such edit; otherwise libFuzzer mutates as usual.

/// Edits that put hostile numbers where a .gt3x keeps its counts, sizes, offsets and rates.
enum GT3XMutation {
    /// 64-bit values a forged zip64 record carries: none may trap the reader.
    static let extremes: [UInt64] = [0, 1, UInt64(Int64.max), UInt64.max, UInt64(Int64.max) + 1, 0xFFFF_FFFF]
    /// Texts for info.txt's numbers, each written only where it fits.
    static let texts = [
        "inf", "-inf", "nan", "1e300", "-1", "0", "9223372036854775807", "99999999999999999999", "1e-9",
    ]
    /// Where the fields are: the zip64 end record's counts, size and offset, the locator's offset.
    static let zip64Fields: [(signature: [UInt8], offsets: [Int])] = [
        ([0x50, 0x4B, 0x06, 0x06], [4, 24, 32, 40, 48]), ([0x50, 0x4B, 0x06, 0x07], [8]),
    ]
    static let infoKeys = [
        "Sample Rate: ", "Start Date: ", "Last Sample Time: ", "Stop Date: ", "Acceleration Scale: ", "TimeZone: ",
    ]

    /// Applies one edit chosen by `seed` to `bytes` in place; `false` when the input has no
    /// field to edit (then libFuzzer mutates it instead).
    static func apply(_ bytes: UnsafeMutableBufferPointer<UInt8>, seed: UInt32) -> Bool {
        var places: [(at: Int, kind: Int)] = []  // kind 0: an 8-byte field; 1: a text value
        for (signature, offsets) in zip64Fields {
            for at in find(signature, in: bytes) {
                for o in offsets where at + o + 8 <= bytes.count { places.append((at + o, 0)) }
            }
        }
        for key in infoKeys {
            for at in find(Array(key.utf8), in: bytes) { places.append((at + key.utf8.count, 1)) }
        }
        guard !places.isEmpty else { return false }
        let place = places[Int(seed / 2) % places.count]
        if place.kind == 0 {
            var v = extremes[Int(seed / 7) % extremes.count]
            for i in 0..<8 {
                bytes[place.at + i] = UInt8(truncatingIfNeeded: v)
                v >>= 8
            }
            return true
        }
        // The value runs to the line's end; a text is written over it only where it fits, padded
        // with spaces, so the stored member keeps its size.
        var end = place.at
        while end < bytes.count && bytes[end] != 0x0D && bytes[end] != 0x0A { end += 1 }
        let fitting = texts.filter { $0.utf8.count <= end - place.at }
        guard !fitting.isEmpty else { return false }
        let text = Array(fitting[Int(seed / 3) % fitting.count].utf8)
        for i in place.at..<end { bytes[i] = i - place.at < text.count ? text[i - place.at] : 0x20 }
        return true
    }

    private static func find(_ needle: [UInt8], in bytes: UnsafeMutableBufferPointer<UInt8>) -> [Int] {
        guard bytes.count >= needle.count else { return [] }
        var hits: [Int] = []
        for i in 0...(bytes.count - needle.count) where bytes[i] == needle[0] {
            if (1..<needle.count).allSatisfy({ bytes[i + $0] == needle[$0] }) { hits.append(i) }
        }
        return hits
    }
}

#if FUZZING
    @_silgen_name("LLVMFuzzerMutate")
    func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>, _ size: Int, _ maxSize: Int) -> Int

    @_cdecl("LLVMFuzzerCustomMutator")
    public func fuzzerCustomMutator(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32)
        -> Int
    {
        guard let data else { return 0 }
        if fuzzTarget == .gt3x && seed % 2 == 0
            && GT3XMutation.apply(UnsafeMutableBufferPointer(start: data, count: size), seed: seed)
        {
            return size
        }
        return libFuzzerMutate(data, size, maxSize)
    }
#endif
