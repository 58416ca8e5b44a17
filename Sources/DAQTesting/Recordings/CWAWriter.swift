import CZlib
import Foundation

/// Writes Axivity `.cwa` recordings as the format's `cwa.h` lays them out, streamed sector by
/// sector so a week-long file takes no more memory than a buffer: a 1024-byte "MD" header, then
/// 512-byte "AX" sectors of AX3 packed (3 × 10 bits + exponent) or int16 samples, or AX6
/// gyroscope + accelerometer int16 samples. Damage can be written on purpose to test readers.
///
/// Sample `n` (from 0) is taken at device local time `time(n)`: the clock runs at `rate × (1 +
/// drift)`, as a real device's does. Each sector's timestamp is the time of one of its samples
/// (which one varies from sector to sector), written as a device does: whole seconds, a 15-bit
/// fraction, and `timestampOffset` moved back by the samples the fraction spans.
public struct CWAWriter: Sendable {
    public enum Device: Sendable {
        case ax3, ax6
    }

    /// How AX3 samples are stored; an AX6 always stores six int16 axes.
    public enum Packing: Sendable {
        /// One 32-bit word a sample: 10-bit x, y, z sharing a 2-bit left shift; 120 a sector.
        case packed
        /// Three int16 a sample; 80 a sector.
        case unpacked
    }

    public var device: Device = .ax3
    public var packing: Packing = .packed
    /// The configured rate, Hz: 3200 / 2^n (6.25 … 3200).
    public var rate: Double = 100
    /// The accelerometer's range, ±g: 2, 4, 8 or 16.
    public var range = 8
    /// The AX6 gyroscope's range, ±°/s: 125, 250, 500, 1000 or 2000.
    public var gyroRange = 2000
    /// Device local time of the first sample: seconds since 1970 read as UTC (2023-11-14 22:13:20.25).
    public var start: Double = 1_700_000_000.25
    /// Seconds of samples written; the last sector may be part full.
    public var seconds: Double = 60
    /// How much faster than `rate` the device's samples come (0.001 = 0.1 %).
    public var drift = 0.0
    /// Whether sectors carry fractional timestamps (firmware from 2014 on); else whole seconds
    /// valid at the sample nearest them, as older firmware wrote.
    public var fractional = true
    public var deviceId: UInt32 = 71_234
    public var sessionId: UInt32 = 4_321
    /// The header's URL-encoded annotations.
    public var metadata = "_sc=P01&_p=left%20wrist&_n=test+file"
    /// 0-based data sectors written with one byte flipped, so their checksum fails.
    public var corrupt: Set<Int> = []
    /// Whether the file is gzip-compressed.
    public var gzip = false
    /// Accelerometer counts of sample `n`: 1 / 256 g each on an AX3, 1 / 2^(8 + n) g on an AX6
    /// (1 / 4096 g at ±8 g). Packed, a count beyond ±511 keeps only the bits the shared shift keeps.
    public var counts: @Sendable (Int) -> (x: Int, y: Int, z: Int) = { n in
        n % 4 == 0
            ? (x: (n * 8) % 4000 - 2000, y: 2000 - (n * 24) % 4000, z: 256)
            : (x: (n * 7) % 1000 - 500, y: (n * 13) % 1000 - 500, z: 256 + n % 50)
    }
    /// Gyroscope counts of sample `n` (AX6): `gyroRange` / 32768 °/s each.
    public var gyroCounts: @Sendable (Int) -> (x: Int, y: Int, z: Int) = { n in
        (x: (n * 97) % 20000 - 10000, y: -(n * 31) % 3000, z: 500 - n % 1000)
    }

    /// A writer with the defaults: 60 s of AX3 packed samples at 100 Hz, ±8 g.
    public init() {}

    /// Samples a sector holds.
    public var samplesPerSector: Int { device == .ax6 ? 40 : packing == .packed ? 120 : 80 }
    /// Samples written.
    public var sampleCount: Int { Int((seconds * rate).rounded()) }
    /// Device local time of sample `n`, seconds since 1970 read as UTC.
    public func time(_ n: Int) -> Double { start + Double(n) / (rate * (1 + drift)) }
    /// Grams per accelerometer count.
    public var accelScale: Double { device == .ax6 ? 1 / Double(1 << (8 + accelCode)) : 1.0 / 256 }
    /// °/s per gyroscope count.
    public var gyroScale: Double { Double(gyroRange) / 32768 }

    /// The accelerometer counts as stored: packed values keep what their shared shift keeps.
    public func stored(_ n: Int) -> (x: Int, y: Int, z: Int) {
        let c = counts(n)
        guard device == .ax3 && packing == .packed else { return c }
        let e = Self.exponent(c)
        return ((c.x >> e) << e, (c.y >> e) << e, (c.z >> e) << e)
    }

    private var accelCode: Int { 3 + [16: 0, 8: 1, 4: 2, 2: 3][range, default: 1] }
    private var gyroCode: Int { Int(log2(8000 / Double(gyroRange)).rounded()) }
    private var rateCode: UInt8 {
        UInt8(15 - Int(log2(3200 / rate).rounded())) | UInt8([16: 0, 8: 1, 4: 2, 2: 3][range, default: 1] << 6)
    }

    /// The smallest shift that fits x, y and z in 10 signed bits.
    static func exponent(_ c: (x: Int, y: Int, z: Int)) -> Int {
        var e = 0
        while e < 3 && [c.x, c.y, c.z].contains(where: { ($0 >> e) < -512 || ($0 >> e) > 511 }) { e += 1 }
        return e
    }

    /// Writes the recording to `path`.
    /// - Throws: `CocoaError` when the file cannot be written.
    public func write(to path: String) throws {
        let sink = try Sink(path: path, gzip: gzip)
        defer { sink.close() }
        var out = header()
        let per = samplesPerSector
        let total = sampleCount
        var sector = 0
        while sector * per < total {
            out += self.sector(sector, samples: min(per, total - sector * per))
            if out.count >= 1 << 20 {
                try sink.write(out)
                out.removeAll(keepingCapacity: true)
            }
            sector += 1
        }
        try sink.write(out)
    }

    /// The 1024-byte header.
    public func header() -> [UInt8] {
        var h = [UInt8](repeating: 0, count: 1024)
        h.put(0x444D, at: 0, 2)
        h.put(1020, at: 2, 2)
        h[4] = device == .ax6 ? 0x64 : 0x17
        h.put(UInt64(deviceId & 0xFFFF), at: 5, 2)
        h.put(UInt64(sessionId), at: 7, 4)
        h.put(UInt64(deviceId >> 16), at: 11, 2)
        h.put(UInt64(Self.pack(Int64(start.rounded(.down)))), at: 13, 4)
        h.put(0xFFFF_FFFF, at: 17, 4)
        h[35] = device == .ax6 ? UInt8(gyroCode) : 0x00
        h[36] = rateCode
        h.put(UInt64(Self.pack(Int64(start.rounded(.down)) - 86_400)), at: 37, 4)
        h[41] = 47
        h.put(0xFFFF, at: 42, 2)
        let text = Array(metadata.utf8.prefix(448))
        h.replaceSubrange(64..<(64 + text.count), with: text)
        for i in (64 + text.count)..<512 { h[i] = 0x20 }
        for i in 512..<1024 { h[i] = 0xFF }
        return h
    }

    /// Data sector `s` (0-based) holding `samples` samples.
    public func sector(_ s: Int, samples: Int) -> [UInt8] {
        let per = samplesPerSector
        let firstSample = s * per
        var b = [UInt8](repeating: 0, count: 512)
        b.put(0x5841, at: 0, 2)
        b.put(508, at: 2, 2)
        // The timestamp belongs to one of the sector's samples; which one varies, as the RTC is
        // read whenever the firmware gets to it.
        var k = (s * 37) % max(samples, 1)
        var whole: Int64
        if fractional {
            let t = time(firstSample + k)
            whole = Int64(t.rounded(.down))
            let stored = Int((t - Double(whole)) * 65536) >> 1
            b.put(UInt64(0x8000 | stored), at: 4, 2)
            k -= ((stored << 1) * Int(rate)) >> 16
        } else {
            whole = Int64(time(firstSample).rounded(.up))
            k = Int(((Double(whole) - time(firstSample)) * rate * (1 + drift)).rounded())
            b.put(UInt64(deviceId & 0x7FFF), at: 4, 2)
        }
        b.put(UInt64(sessionId), at: 6, 4)
        b.put(UInt64(s), at: 10, 4)
        b.put(UInt64(Self.pack(whole)), at: 14, 4)
        let light = UInt64(lightCode(s))
        b.put(device == .ax6 ? UInt64(accelCode) << 13 | UInt64(gyroCode) << 10 | light : light, at: 18, 2)
        b.put(UInt64(temperatureCode(s)), at: 20, 2)
        b[23] = UInt8(200 - s % 50)
        b[24] = rateCode
        b[25] = device == .ax6 ? 0x62 : packing == .packed ? 0x30 : 0x32
        b.put(UInt64(UInt16(bitPattern: Int16(k))), at: 26, 2)
        b.put(UInt64(samples), at: 28, 2)
        for i in 0..<samples {
            let n = firstSample + i
            let c = counts(n)
            switch (device, packing) {
            case (.ax3, .packed):
                let e = Self.exponent(c)
                let v =
                    UInt64(e) << 30 | UInt64((c.z >> e) & 0x3FF) << 20 | UInt64((c.y >> e) & 0x3FF) << 10
                    | UInt64((c.x >> e) & 0x3FF)
                b.put(v, at: 30 + i * 4, 4)
            case (.ax3, .unpacked):
                for (a, v) in [c.x, c.y, c.z].enumerated() {
                    b.put(UInt64(UInt16(bitPattern: Int16(v))), at: 30 + i * 6 + a * 2, 2)
                }
            case (.ax6, _):
                let g = gyroCounts(n)
                for (a, v) in [g.x, g.y, g.z, c.x, c.y, c.z].enumerated() {
                    b.put(UInt64(UInt16(bitPattern: Int16(v))), at: 30 + i * 12 + a * 2, 2)
                }
            }
        }
        var sum: UInt32 = 0
        for i in stride(from: 0, to: 510, by: 2) { sum &+= UInt32(b[i]) | UInt32(b[i + 1]) << 8 }
        b.put(UInt64((0x10000 - sum & 0xFFFF) & 0xFFFF), at: 510, 2)
        if corrupt.contains(s) { b[100] ^= 0x5A }
        return b
    }

    /// The raw temperature of sector `s`: °C = raw × 75 / 256 − 50.
    public func temperatureCode(_ s: Int) -> Int { 290 + s % 30 }
    /// The raw light reading of sector `s`.
    public func lightCode(_ s: Int) -> Int { 100 + s % 400 }

    /// A local time (seconds since 1970 read as UTC) packed as `YYYYYYMM MMDDDDDh hhhhmmmm mmssssss`.
    public static func pack(_ seconds: Int64) -> UInt32 {
        let days = Int(seconds / 86_400)
        let rest = Int(seconds % 86_400)
        let (y, m, d) = TestFormat.civil(days)
        return UInt32(y - 2000) << 26 | UInt32(m) << 22 | UInt32(d) << 17 | UInt32(rest / 3600) << 12
            | UInt32(rest / 60 % 60) << 6 | UInt32(rest % 60)
    }

    /// A plain or gzip output file.
    private final class Sink {
        let path: String
        let handle: FileHandle?
        let gz: gzFile?

        init(path: String, gzip: Bool) throws {
            self.path = path
            if gzip {
                guard let g = gzopen(path, "wb6") else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
                }
                gz = g
                handle = nil
            } else {
                guard FileManager.default.createFile(atPath: path, contents: nil),
                    let h = FileHandle(forWritingAtPath: path)
                else {
                    throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
                }
                handle = h
                gz = nil
            }
        }

        func write(_ bytes: [UInt8]) throws {
            if let gz {
                let n = bytes.withUnsafeBytes { gzwrite(gz, $0.baseAddress, UInt32($0.count)) }
                if Int(n) != bytes.count { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
            } else {
                try handle?.write(contentsOf: bytes)
            }
        }

        func close() {
            if let gz { gzclose(gz) }
            try? handle?.close()
        }
    }
}

extension [UInt8] {
    /// Stores `value` little-endian in `width` bytes at `offset`.
    fileprivate mutating func put(_ value: UInt64, at offset: Int, _ width: Int) {
        for i in 0..<width { self[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt64(i))) }
    }
}
