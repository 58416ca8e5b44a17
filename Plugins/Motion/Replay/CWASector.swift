/// One 512-byte "AX" data sector of a `.cwa` file, checked and decoded into arrays that are
/// allocated once and reused for every sector, so reading allocates nothing per sample.
///
/// Axes are in g (1 / 2^(8 + n) g a count, n from the top bits of the light word, 0 on an AX3),
/// the gyroscope in °/s; its time anchor is the sector's timestamp with its fraction, valid at
/// sample `anchor`, as omconvert reads it.
struct CWASector {
    static let size = 512
    /// The most samples a sector holds: 120 packed, 80 three-axis int16, 40 six-axis.
    static let capacity = 120

    var xs = [Double](repeating: 0, count: capacity)
    var ys = [Double](repeating: 0, count: capacity)
    var zs = [Double](repeating: 0, count: capacity)
    var gx = [Double](repeating: 0, count: capacity)
    var gy = [Double](repeating: 0, count: capacity)
    var gz = [Double](repeating: 0, count: capacity)
    var count = 0
    var sequence: UInt32 = 0
    var session: UInt32 = 0
    /// numAxesBPS and the rate code, which every sector of one recording shares.
    var format: UInt8 = 0
    var rateCode: UInt8 = 0
    /// Device local time of sample `anchor`, seconds since 1970 read as UTC: whole and fraction.
    var local: Int64 = 0
    var fraction = 0.0
    /// The sample (from this sector's first, possibly outside it) the timestamp belongs to.
    var anchor = 0
    var temperature = 0.0
    var light = 0.0
    /// 1-based number of the data sector, and its byte offset in the (decompressed) file.
    var number = 0
    var offset: Int64 = 0

    /// Whether sample values include a gyroscope (six or nine axes, int16).
    var hasGyro: Bool { format >> 4 >= 6 }

    /// Checks and decodes the sector at `p`.
    /// - Parameter gyroRange: °/s at full scale when the sector does not say (the header's setting).
    /// - Returns: `nil` on success, else what is wrong with it, for the message.
    mutating func decode(_ p: UnsafeRawPointer, gyroRange: Double) -> String? {
        guard p.load(as: UInt8.self) == 0x41, p.load(fromByteOffset: 1, as: UInt8.self) == 0x58 else {
            return "does not start with 'AX' (not a data sector)"
        }
        guard Self.u16(p, 2) == 508 else { return "has a packet length of \(Self.u16(p, 2)), not 508" }
        // 16-bit words summing to zero; 256 words of at most 0xFFFF cannot overflow 32 bits.
        var sum: UInt32 = 0
        for i in 0..<256 {
            sum &+= UInt32(UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self)))
        }
        guard sum & 0xFFFF == 0 else { return "fails its checksum" }
        format = p.load(fromByteOffset: 25, as: UInt8.self)
        rateCode = p.load(fromByteOffset: 24, as: UInt8.self)
        let axes = Int(format >> 4)
        let packed = format & 0x0F == 0
        guard (packed && axes == 3) || (format & 0x0F == 2 && (axes == 3 || axes == 6 || axes == 9)) else {
            return "has an unknown sample format 0x\(String(format, radix: 16))"
        }
        let stamp = UInt32(Self.u16(p, 14)) | UInt32(Self.u16(p, 16)) << 16
        guard let whole = CWATimestamp.local(stamp) else { return "has no valid timestamp" }
        let rate = CWATimestamp.rate(code: rateCode)
        let bytesPerSample = packed ? 4 : 2 * axes
        count = min(Int(Self.u16(p, 28)), 480 / bytesPerSample)
        session = UInt32(Self.u16(p, 6)) | UInt32(Self.u16(p, 8)) << 16
        sequence = UInt32(Self.u16(p, 10)) | UInt32(Self.u16(p, 12)) << 16
        local = whole
        anchor = Int(Int16(bitPattern: Self.u16(p, 26)))
        let fractional = Self.u16(p, 4)
        fraction = 0
        if fractional & 0x8000 != 0 {
            // The device moved timestampOffset back by the samples the fraction spans (so readers
            // without fractions stay close); that shift is undone exactly as omconvert does.
            let f = Int(fractional & 0x7FFF) << 1
            anchor += (f * Int(rate)) >> 16
            fraction = Double(f) / 65536
        }
        let lightWord = Self.u16(p, 18)
        light = Double(lightWord & 0x3FF)
        temperature = Double(Self.u16(p, 20) & 0x3FF) * 75 / 256 - 50
        let scale = 1 / Double(1 << (8 + Int(lightWord >> 13)))
        let g = Int(lightWord >> 10 & 0x07)
        let dps = (g != 0 ? 8000 / Double(1 << g) : gyroRange) / 32768
        let data = p + 30
        if packed {
            unpackPacked(data, scale: scale)
        } else {
            unpackWords(data, axes: axes, scale: scale, dps: dps)
        }
        return nil
    }

    /// 3 × 10-bit two's complement values and a shared 2-bit left shift per 32-bit word.
    private mutating func unpackPacked(_ data: UnsafeRawPointer, scale: Double) {
        let n = count
        xs.withUnsafeMutableBufferPointer { xs in
            ys.withUnsafeMutableBufferPointer { ys in
                zs.withUnsafeMutableBufferPointer { zs in
                    for i in 0..<n {
                        let v = UInt32(littleEndian: data.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                        let e = Int32(v >> 30)
                        xs[i] = Double((Int32(bitPattern: v << 22) >> 22) << e) * scale
                        ys[i] = Double((Int32(bitPattern: v << 12) >> 22) << e) * scale
                        zs[i] = Double((Int32(bitPattern: v << 2) >> 22) << e) * scale
                    }
                }
            }
        }
    }

    /// Little-endian int16 axes; with six or more, gyroscope x y z come before the accelerometer's.
    private mutating func unpackWords(_ data: UnsafeRawPointer, axes: Int, scale: Double, dps: Double) {
        let n = count
        let step = axes * 2
        let a = axes >= 6 ? 6 : 0
        @inline(__always) func word(_ i: Int, _ k: Int) -> Double {
            Double(Int16(littleEndian: data.loadUnaligned(fromByteOffset: i * step + k, as: Int16.self)))
        }
        for i in 0..<n {
            xs[i] = word(i, a) * scale
            ys[i] = word(i, a + 2) * scale
            zs[i] = word(i, a + 4) * scale
        }
        guard axes >= 6 else { return }
        for i in 0..<n {
            gx[i] = word(i, 0) * dps
            gy[i] = word(i, 2) * dps
            gz[i] = word(i, 4) * dps
        }
    }

    @inline(__always) static func u16(_ p: UnsafeRawPointer, _ i: Int) -> UInt16 {
        UInt16(littleEndian: p.loadUnaligned(fromByteOffset: i, as: UInt16.self))
    }
}
