import DAQCore
import Foundation

/// What a .gt3x's `info.txt` says: `Key: value` lines, dates in .NET ticks of the device's
/// local time, the zone as `TimeZone: -04:00:00`.
struct GT3XInfo {
    var serial: String?
    var deviceType: String?
    var firmware: String?
    var rate: Double?
    /// Device local time of the start, seconds since 1970 as if it were UTC.
    var startLocal: Double?
    var stopLocal: Double?
    /// Device local time of the last sample, when info.txt gives it (`Last Sample Time`).
    var lastSampleLocal: Double?
    var downloadLocal: Double?
    /// Seconds the device's zone is ahead of UTC, when info.txt names one.
    var utcOffset: Int?
    /// Counts per g, when info.txt gives it (newer ActiLife versions).
    var scale: Double?
    /// The range the device measures, g.
    var range: (min: Double, max: Double)?

    /// .NET ticks (100 ns since 0001-01-01) at 1970-01-01.
    static let unixEpochTicks: Int64 = 621_355_968_000_000_000

    /// Parses the text; unknown keys are ignored, as the format allows.
    init(text: String) {
        var values: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {  // "\r\n" is one Character
            guard let colon = raw.firstIndex(of: ":") else { continue }
            let key = raw[..<colon].trimmingCharacters(in: .whitespaces)
            values[key] = raw[raw.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let number = { (key: String) in values[key].flatMap { Double($0.replacingOccurrences(of: ",", with: ".")) } }
        serial = values["Serial Number"].flatMap { $0.isEmpty ? nil : $0 }
        deviceType = values["Device Type"].flatMap { $0.isEmpty ? nil : $0 }
        firmware = values["Firmware"].flatMap { $0.isEmpty ? nil : $0 }
        rate = number("Sample Rate").flatMap { $0 > 0 ? $0 : nil }
        startLocal = Self.ticks(values["Start Date"])
        stopLocal = Self.ticks(values["Stop Date"])
        lastSampleLocal = Self.ticks(values["Last Sample Time"])
        downloadLocal = Self.ticks(values["Download Date"])
        utcOffset = values["TimeZone"].flatMap(Self.offset)
        scale = number("Acceleration Scale").flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        if let lo = number("Acceleration Min"), let hi = number("Acceleration Max"), lo < hi { range = (lo, hi) }
    }

    /// Seconds since 1970 from .NET ticks; nil for 0 (a date not set) or text that is no number.
    static func ticks(_ text: String?) -> Double? {
        guard let text, let t = Int64(text), t > 0 else { return nil }
        return Double(t - unixEpochTicks) / 10_000_000
    }

    /// `-04:00:00`, `01:00:00`, `+05:30` → seconds east of UTC.
    static func offset(_ text: String) -> Int? {
        var s = Substring(text)
        var sign = 1
        if s.first == "-" || s.first == "+" {
            sign = s.first == "-" ? -1 : 1
            s = s.dropFirst()
        }
        // Each part is checked before it is multiplied: `99999999999999:00` would overflow.
        let parts = s.split(separator: ":").map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0.map { (0..<100).contains($0) } ?? false }) else {
            return nil
        }
        let p = parts.map { $0! }
        let seconds = p[0] * 3600 + (p.count > 1 ? p[1] * 60 : 0) + (p.count > 2 ? p[2] : 0)
        guard seconds <= 14 * 3600 else { return nil }
        return sign * seconds
    }

    /// The device's last second as info.txt gives it, local time: the last sample, else the
    /// stop, else the download.
    var endLocal: Double? { lastSampleLocal ?? stopLocal ?? downloadLocal }

    /// The scale the serial number implies, per the format's specification: 341 counts/g for
    /// the ±6 g GT3X+ and wGT3X+ (NEO, CLE, MRA), 256 for the ±8 g wGT3X-BT family (MOS).
    static func scale(forSerial serial: String?) -> Double? {
        guard let serial else { return nil }
        if serial.hasPrefix("NEO") || serial.hasPrefix("CLE") || serial.hasPrefix("MRA") { return 341 }
        if serial.hasPrefix("MOS") { return 256 }
        return nil
    }

    /// `+01:00`, `-04:00`, `+05:45`: how the manifest writes a fixed zone.
    static func offsetName(_ seconds: Int) -> String {
        let a = abs(seconds)
        let two = { (v: Int) in v < 10 ? "0\(v)" : "\(v)" }
        return (seconds < 0 ? "-" : "+") + two(a / 3600) + ":" + two(a / 60 % 60)
    }
}
