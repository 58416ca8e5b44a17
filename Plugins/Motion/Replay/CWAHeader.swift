/// The 1024-byte "MD" header that starts an Axivity `.cwa` file, as the format's `cwa.h` lays it
/// out: hardware type, device and session ids, the configured rate and range, the gyroscope
/// range, the delayed-logging window and the study's annotations.
struct CWAHeader {
    /// Bytes of the header; the first data sector follows it.
    static let size = 1024
    /// The header's packet length field: 1020 bytes after its 4-byte "MD" + length prefix.
    static let packetLength: UInt16 = 0x03FC

    /// `AX3` or `AX6`; another hardware code is shown in hex.
    var device: String
    var deviceId: UInt32
    var sessionId: UInt32
    /// The configured sample rate, Hz.
    var rate: Double
    /// The accelerometer's range, ±g.
    var range: Int
    /// The gyroscope's range, ±°/s, when the configuration enables it.
    var gyroRange: Double?
    var firmware: Int
    /// Delayed-logging start and stop as device local time (seconds since 1970 read as UTC), when set.
    var loggingStart: Int64?
    var loggingEnd: Int64?
    /// URL-decoded `name=value` annotations, shorthand names expanded (`_sc` → `Subject Code`).
    var annotations: [(String, String)] = []

    /// Whether `bytes` start as a .cwa header does: "MD" and the header's packet length.
    static func matches(_ bytes: some Collection<UInt8>) -> Bool {
        Array(bytes.prefix(4)) == [0x4D, 0x44, UInt8(packetLength & 0xFF), UInt8(packetLength >> 8)]
    }

    /// Parses a header; `nil` when it does not start with "MD" and the header's length.
    init?(_ h: [UInt8]) {
        guard h.count >= Self.size, Self.matches(h) else { return nil }
        func u16(_ i: Int) -> UInt16 { UInt16(h[i]) | UInt16(h[i + 1]) << 8 }
        func u32(_ i: Int) -> UInt32 { UInt32(u16(i)) | UInt32(u16(i + 2)) << 16 }
        switch h[4] {
        case 0x00, 0xFF, 0x17: device = "AX3"
        case 0x64: device = "AX6"
        default: device = "Axivity 0x" + String(h[4], radix: 16)
        }
        let upper = u16(11)
        deviceId = UInt32(u16(5)) | (upper == 0xFFFF ? 0 : UInt32(upper) << 16)
        sessionId = u32(7)
        loggingStart = CWATimestamp.local(u32(13))
        loggingEnd = CWATimestamp.local(u32(17))
        let sensors = h[35]
        if sensors != 0x00 && sensors != 0xFF && sensors & 0x0F != 0 {
            gyroRange = 8000 / Double(1 << Int(sensors & 0x0F))
        }
        rate = CWATimestamp.rate(code: h[36])
        range = 16 >> Int(h[36] >> 6)
        firmware = Int(h[41])
        annotations = Self.parseAnnotations(h[64..<512])
    }

    static let shorthand: [String: String] = [
        "_c": "Study Centre", "_s": "Study Code", "_i": "Investigator", "_x": "Exercise Code", "_v": "Volunteer Num",
        "_p": "Body Location", "_so": "Setup Operator", "_n": "Notes", "_b": "Start time", "_e": "End time",
        "_ro": "Recovery Operator", "_r": "Retrieval Time", "_co": "Comments", "_sc": "Subject Code", "_se": "Sex",
        "_h": "Height", "_w": "Weight", "_ha": "Handedness", "_sn": "Subject Notes",
    ]

    /// `a=b&c=d` text, padded with spaces, NULs or 0xFF, as URL-encoded UTF-8 pairs.
    static func parseAnnotations(_ bytes: ArraySlice<UInt8>) -> [(String, String)] {
        var end = bytes.endIndex
        while end > bytes.startIndex, [0x20, 0x00, 0xFF].contains(bytes[end - 1]) { end -= 1 }
        var pairs: [(String, String)] = []
        for item in bytes[bytes.startIndex..<end].split(separator: UInt8(ascii: "&")) {
            let parts = item.split(separator: UInt8(ascii: "="), maxSplits: 1, omittingEmptySubsequences: false)
            let name = urlDecode(parts[0])
            guard !name.isEmpty else { continue }
            pairs.append((shorthand[name] ?? name, parts.count > 1 ? urlDecode(parts[1]) : ""))
        }
        return pairs
    }

    /// `%xx` escapes and `+` for space, as application/x-www-form-urlencoded writes them.
    static func urlDecode(_ bytes: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let b = bytes[i]
            if b == UInt8(ascii: "%"), i + 2 < bytes.endIndex,
                let v = UInt8(String(decoding: bytes[(i + 1)...(i + 2)], as: UTF8.self), radix: 16)
            {
                out.append(v)
                i += 3
                continue
            }
            out.append(b == UInt8(ascii: "+") ? 0x20 : b)
            i += 1
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// The packed date-times and rate codes of .cwa headers and sectors.
enum CWATimestamp {
    /// Seconds since 1970 (read as UTC) of a packed `YYYYYYMM MMDDDDDh hhhhmmmm mmssssss` value
    /// (years from 2000); `nil` for 0, all ones, or fields that are no date.
    static func local(_ v: UInt32) -> Int64? {
        guard v != 0, v != 0xFFFF_FFFF else { return nil }
        let year = Int(v >> 26) + 2000
        let month = Int(v >> 22 & 0x0F)
        let day = Int(v >> 17 & 0x1F)
        let hour = Int(v >> 12 & 0x1F)
        let minute = Int(v >> 6 & 0x3F)
        let second = Int(v & 0x3F)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 60 else { return nil }
        return Int64(LocalDateTime.daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second)
    }

    /// Hz of a rate code: 3200 / 2^(15 − the low nibble).
    static func rate(code: UInt8) -> Double { 3200 / Double(1 << (15 - Int(code & 0x0F))) }
}
