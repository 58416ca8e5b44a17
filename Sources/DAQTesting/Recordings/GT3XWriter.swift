import Foundation

/// Writes ActiGraph `.gt3x` recordings (a zip of `info.txt` and `log.bin`) as the
/// GT3X-File-Format specification lays them out, so readers can be tested on files of any
/// length with known contents: ACTIVITY (12-bit packed) or ACTIVITY2 (int16) records, a
/// PARAMETERS record with the scale, idle-sleep events, missing seconds and corrupt records.
///
/// Sample `n` (counting measured samples only, from 0) holds the counts `counts(n)`; in g it
/// is `counts(n) / scale`. Record timestamps are the device's local time: UTC `start` plus
/// `utcOffset`.
public struct GT3XWriter: Sendable {
    /// The record type carrying the samples.
    public enum Activity: Sendable {
        /// Type 0x00: 12-bit two's complement, packed big-endian, in Y, X, Z order.
        case activity
        /// Type 0x1A: little-endian int16 in X, Y, Z order.
        case activity2
    }

    /// How the members are laid out.
    public enum Layout: Sendable {
        /// `info.txt` and `log.bin`.
        case standard
        /// The old NHANES layout (GT3X+ up to firmware 2.5.0): `info.txt`, `log.txt` and
        /// `activity.bin`, one 12-bit packed Y X Z stream of every sample from the start, no
        /// `log.bin`. Missing and idle-sleep seconds do not apply: the device wrote every sample.
        case nhanes
        /// `info.txt` alone.
        case infoOnly
    }

    public var activity: Activity = .activity2
    public var layout: Layout = .standard
    public var rate = 30
    /// UTC of the first sample, seconds since 1970 (whole seconds).
    public var start: Int = 1_700_000_000
    /// Seconds the device clock is ahead of UTC; written to `info.txt` as `TimeZone`.
    public var utcOffset = 3600
    /// Whether `info.txt` has a `TimeZone` line.
    public var writesTimeZone = true
    /// Seconds recorded, counted from `start`, including those slept through or missing.
    public var seconds = 10
    /// Counts per g.
    public var scale = 256.0
    /// Whether log.bin starts with a PARAMETERS record giving the scale and rate.
    public var parameters = true
    /// Whether `info.txt` has an `Acceleration Scale` line.
    public var infoScale = true
    public var serial = "MOS2E12345678"
    public var deviceType = "wGT3XBT"
    public var firmware = "1.9.2"
    /// Seconds (from `start`) the device slept through: an idle-sleep-entered event at the first,
    /// an exited event at the end, and no activity records in between.
    public var idleSleep: [Range<Int>] = []
    /// Seconds with no record at all (the device lost them).
    public var missing: Set<Int> = []
    /// Seconds whose activity record gets a wrong checksum.
    public var corrupt: Set<Int> = []
    /// Whether a 1-byte USB-connection activity record, a battery and a lux record are added.
    public var otherRecords = true
    public var method: ZipWriter.Method = .deflated(level: 6)
    /// Whether the zip ends with zip64 records (``ZipWriter/endsWithZip64``).
    public var zip64 = false
    /// The counts of measured sample `n`, x, y, z; for ACTIVITY within -2048...2047.
    public var counts: @Sendable (Int) -> (x: Int, y: Int, z: Int) = { n in
        (x: (n * 7) % 1500 - 750, y: (n * 13) % 1700 - 850, z: 256 + (n % 40) - 20)
    }

    /// A writer with the defaults: 10 s of ACTIVITY2 at 30 Hz, deflated.
    public init() {}

    /// Whether second `s` (from `start`) carries an activity record.
    public func isMeasured(_ s: Int) -> Bool { !missing.contains(s) && !idleSleep.contains { $0.contains(s) } }

    /// Writes the recording to `path`.
    /// - Throws: ``ZipWriterError`` if the file cannot be written.
    public func write(to path: String) throws {
        let zip = try ZipWriter(path: path)
        zip.endsWithZip64 = zip64
        try zip.begin("info.txt", method: method)
        try zip.write(Array(infoText().utf8))
        switch layout {
        case .standard:
            try zip.begin("log.bin", method: method)
            try writeLog(zip)
        case .nhanes:
            try zip.begin("log.txt", method: method)
            try zip.write(Array("Battery Voltage: 4.12\r\n".utf8))
            try zip.begin("activity.bin", method: method)
            try writeActivityBin(zip)
        case .infoOnly: break
        }
        try zip.close()
    }

    /// The text of `info.txt`, with CRLF line ends as ActiLife writes them.
    public func infoText() -> String {
        let ticks = { (utc: Int) in String((Int64(utc + utcOffset) + 62_135_596_800) * 10_000_000) }
        var lines = [
            "Serial Number: \(serial)", "Device Type: \(deviceType)", "Firmware: \(firmware)", "Battery Voltage: 4.12",
            "Sample Rate: \(rate)", "Start Date: \(ticks(start))", "Stop Date: 0",
            "Last Sample Time: \(ticks(start + seconds))",
            "TimeZone: \(Self.offsetText(utcOffset))", "Download Date: \(ticks(start + seconds + 60))",
            "Board Revision: 4",
            "Unexpected Resets: 0", "Subject Name: test", "Acceleration Scale: \(scale)", "Acceleration Min: -8.0",
            "Acceleration Max: 8.0",
        ]
        if !writesTimeZone { lines.removeAll { $0.hasPrefix("TimeZone") } }
        if !infoScale { lines.removeAll { $0.hasPrefix("Acceleration") } }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// `-04:00:00` / `01:00:00`, as info.txt writes a zone.
    static func offsetText(_ seconds: Int) -> String {
        let a = abs(seconds)
        let two = { (v: Int) in v < 10 ? "0\(v)" : "\(v)" }
        return (seconds < 0 ? "-" : "") + "\(two(a / 3600)):\(two(a / 60 % 60)):\(two(a % 60))"
    }

    /// `seconds × rate` samples of `counts`, 36 bits each (Y, X, Z), one stream across seconds.
    private func writeActivityBin(_ zip: ZipWriter) throws {
        var out = [UInt8]()
        var nibble: UInt8? = nil
        for n in 0..<(seconds * rate) {
            let c = counts(n)
            for v in [c.y, c.x, c.z] { Self.pack12(v, into: &out, nibble: &nibble) }
            if out.count > 1 << 20 {
                try zip.write(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        if let high = nibble { out.append(high << 4) }
        try zip.write(out)
    }

    /// Appends the 12-bit two's complement `v`, big-endian, after a held half byte if any.
    static func pack12(_ v: Int, into out: inout [UInt8], nibble: inout UInt8?) {
        let u = UInt16(bitPattern: Int16(v)) & 0x0FFF
        if let high = nibble {
            out.append(high << 4 | UInt8(u >> 8))
            out.append(UInt8(u & 0xFF))
            nibble = nil
        } else {
            out.append(UInt8(u >> 4))
            nibble = UInt8(u & 0x0F)
        }
    }

    private func writeLog(_ zip: ZipWriter) throws {
        let local = { (s: Int) in UInt32(start + utcOffset + s) }
        var log = [UInt8]()
        log += Self.record(0x06, local(0), Array(#"{"MetadataType":"SubjectInfo","SubjectName":"test"}"#.utf8))
        if parameters {
            var p = [UInt8]()
            p.le(0, 2)
            p.le(55, 2)
            p.le(UInt64(Self.sspEncode(scale)), 4)  // ACCEL_SCALE
            p.le(1, 2)
            p.le(10, 2)
            p.le(UInt64(rate), 4)  // SAMPLE_RATE
            p.le(1, 2)
            p.le(2, 2)
            p.le(idleSleep.isEmpty ? 0 : 4, 4)  // FEATURE_ENABLE: sleep mode
            log += Self.record(0x15, local(0), p)
        }
        var n = 0
        for s in 0..<seconds {
            if let sleep = idleSleep.first(where: { $0.lowerBound == s }) {
                log += Self.record(0x03, local(sleep.lowerBound), [0x08])
            }
            if let sleep = idleSleep.first(where: { $0.upperBound == s }) {
                log += Self.record(0x03, local(sleep.upperBound), [0x09])
            }
            if otherRecords && s % 60 == 0 {
                log += Self.record(0x02, local(s), [0x1A, 0x10])  // battery, 4122 mV
                log += Self.record(0x05, local(s), [0x10, 0x00])  // lux
            }
            guard isMeasured(s) else { continue }
            var payload = [UInt8]()
            payload.reserveCapacity(rate * 6)
            var nibble: UInt8? = nil
            for _ in 0..<rate {
                let c = counts(n)
                n += 1
                switch activity {
                case .activity2:
                    for v in [c.x, c.y, c.z] { payload.le(UInt64(UInt16(bitPattern: Int16(v))), 2) }
                case .activity:
                    for v in [c.y, c.x, c.z] { Self.pack12(v, into: &payload, nibble: &nibble) }
                }
            }
            if let high = nibble { payload.append(high << 4) }
            var r = Self.record(activity == .activity ? 0x00 : 0x1A, local(s), payload)
            if corrupt.contains(s) { r[r.count - 1] ^= 0x5A }
            log += r
            if log.count > 1 << 20 {
                try zip.write(log)
                log.removeAll(keepingCapacity: true)
            }
        }
        if let sleep = idleSleep.first(where: { $0.upperBound == seconds }) {
            log += Self.record(0x03, local(sleep.upperBound), [0x09])
        }
        // USB connection
        if otherRecords { log += Self.record(activity == .activity ? 0x00 : 0x1A, local(seconds), [0x01]) }
        try zip.write(log)
    }

    /// One log record: separator, type, timestamp, size, payload, and the 1's complement XOR checksum.
    public static func record(_ type: UInt8, _ timestamp: UInt32, _ payload: [UInt8]) -> [UInt8] {
        var r: [UInt8] = [0x1E, type]
        r.le(UInt64(timestamp), 4)
        r.le(UInt64(payload.count), 2)
        r += payload
        r.append(~r.reduce(0, ^))
        return r
    }

    /// The PARAMETERS float encoding: a 24-bit two's complement fraction and an 8-bit exponent.
    public static func sspEncode(_ value: Double) -> UInt32 {
        guard value != 0 else { return 0 }
        let e = value.magnitude.exponent + 1  // mantissa in [0.5, 1)
        let fraction = Int32((value.magnitude / pow(2, Double(e))) * 8_388_608) * (value < 0 ? -1 : 1)
        return (UInt32(bitPattern: fraction) & 0x00FF_FFFF) | (UInt32(UInt8(bitPattern: Int8(e))) << 24)
    }
}
