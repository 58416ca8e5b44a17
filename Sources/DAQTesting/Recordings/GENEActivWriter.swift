import DAQCore
import Foundation

/// Writes GENEActiv `.bin` files as the GENEActiv PC software extracts them — a 59-line text
/// header with calibration, then pages of 300 hex-encoded samples — streamed, so a week-long
/// file takes no more memory than a page. Damage can be written on purpose to test readers.
///
/// Layout (GENEActiv instructions, "Decoding .bin files"): each page is `Recorded Data`, eight
/// `Key:Value` lines (serial, sequence number, `Page Time:yyyy-MM-dd HH:mm:ss:SSS`, unassigned,
/// temperature, battery voltage, device status, measurement frequency), then 3600 hex digits:
/// per sample 12-bit signed x, y, z, 10-bit light, the button bit and a reserved bit.
public struct GENEActivWriter {
    /// The header's calibration: value in g = (raw × 100 − offset) / gain; lux = raw × lux / volts.
    public struct Calibration: Sendable {
        public var xGain = 25548, xOffset = 574, yGain = 25556, yOffset = -436, zGain = 25406, zOffset = 1168
        public var volts = 300, lux = 800
        /// The calibration of a device seen in the field.
        public init() {}
    }

    /// One sample as the device stores it.
    public struct RawSample: Sendable {
        /// 12-bit signed: −2048…2047.
        public var x: Int, y: Int, z: Int
        /// 10-bit: 0…1023.
        public var light: Int
        public var button: Bool
        /// A sample.
        public init(x: Int, y: Int, z: Int, light: Int = 0, button: Bool = false) {
            (self.x, self.y, self.z, self.light, self.button) = (x, y, z, light, button)
        }
    }

    /// Damage written into one page on purpose.
    public enum PageDamage: Sendable {
        /// A character that is not hex at this 0-based position of the data line.
        case badHex(at: Int)
        /// The data line 12 characters short.
        case shortData
        /// The page's data line left out.
        case missingDataLine
    }

    public var serial = "012345"
    /// The measurement frequency, Hz, in the header and on every page.
    public var frequency: Double = 100
    /// The header's `Time Zone` line (`nil` leaves it out).
    public var timeZone: String? = "GMT +01:00"
    public var calibration = Calibration()
    /// The first page's time on the device's clock: seconds since 1970 read as UTC (2024-01-11 15:35:31).
    public var start: Double = 1_704_987_331
    /// The temperature written on page `i`.
    public var temperature: @Sendable (Int) -> Double = { 20 + Double($0 % 10) / 10 }
    /// Damage by 0-based page number.
    public var damage: [Int: PageDamage] = [:]
    /// Seconds left without samples before page `i` (a gap), by 0-based page number.
    public var gapBefore: [Int: Double] = [:]
    /// The header's `Number of Pages`; the number written when `nil`.
    public var statedPages: Int?

    /// A writer with the defaults above.
    public init() {}

    /// The local time of page `i`'s first sample: pages follow each other at 300 / frequency s.
    public func pageTime(_ i: Int) -> Double {
        var t = start + Double(i) * 300 / frequency
        for (page, seconds) in gapBefore where page <= i { t += seconds }
        return t
    }

    /// Writes `pages` pages; `sample(n)` gives the n-th sample of the file (0-based).
    /// - Throws: when the file cannot be written.
    public func write(to path: String, pages: Int, sample: (Int) -> RawSample) throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path)
        else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
        defer { try? file.close() }
        var out = [UInt8]()
        out.reserveCapacity(1 << 20)
        out.append(contentsOf: header(pages: statedPages ?? pages).utf8)
        let digits = Array("0123456789ABCDEF".utf8)
        for p in 0..<pages {
            let pageHeader = """
                Recorded Data
                Device Unique Serial Code:\(serial)
                Sequence Number:\(p)
                Page Time:\(Self.format(pageTime(p)))
                Unassigned:
                Temperature:\(temperature(p))
                Battery voltage:4.1400
                Device Status:Recording
                Measurement Frequency:\(frequency)

                """
            out.append(contentsOf: pageHeader.utf8)
            let lineStart = out.count
            for i in 0..<300 {
                let s = sample(p * 300 + i)
                let v =
                    UInt64(s.x & 0xFFF) << 36 | UInt64(s.y & 0xFFF) << 24 | UInt64(s.z & 0xFFF) << 12 | UInt64(
                        s.light & 0x3FF) << 2
                    | (s.button ? 2 : 0)
                for k in (0..<12).reversed() { out.append(digits[Int(v >> (UInt64(k) * 4) & 0xF)]) }
            }
            switch damage[p] {
            case .badHex(let at): out[lineStart + at] = UInt8(ascii: "G")
            case .shortData: out.removeLast(12)
            case .missingDataLine: out.removeLast(3600)
            case nil: break
            }
            if damage[p].map({ if case .missingDataLine = $0 { false } else { true } }) ?? true { out.append(0x0A) }
            if out.count > 1 << 20 {
                try file.write(contentsOf: out)
                out.removeAll(keepingCapacity: true)
            }
        }
        try file.write(contentsOf: out)
    }

    /// The 59-line header.
    func header(pages: Int) -> String {
        let c = calibration
        return """
            Device Identity
            Device Unique Serial Code:\(serial)
            Device Type:GENEActiv
            Device Model:1.2
            Device Firmware Version:Ver06.17 15June23
            Calibration Date:2023-09-07 15:04:34:000

            Device Capabilities
            Accelerometer Range:-8 to 8
            Accelerometer Resolution:0.0039
            Accelerometer Units:g
            Light Meter Range:0 to 20000
            Light Meter Resolution:3 to 48
            Light Meter Units:lux
            Temperature Sensor Range:0 to 70
            Temperature Sensor Resolution:0.1
            Temperature Sensor Units:deg. C

            Configuration Info
            Measurement Frequency:\(TestFormat.short(frequency)) Hz
            Measurement Period:168 Hours
            Start Time:\(Self.format(start))
            \(timeZone.map { "Time Zone:\($0)" } ?? "")

            Trial Info
            Study Centre:
            Study Code:
            Investigator ID:
            Exercise Type:
            Config Operator ID:
            Config Time:\(Self.format(start - 3600))
            Config Notes:
            Extract Operator ID:
            Extract Time:\(Self.format(start + 86_400))
            Extract Notes:(device clock drift 0.000s)

            Subject Info
            Device Location Code:left wrist
            Subject Code:TEST
            Date of Birth:1900-01-01
            Sex:
            Height:
            Weight:
            Handedness Code:
            Subject Notes:

            Calibration Data
            x gain:\(c.xGain)
            x offset:\(c.xOffset)
            y gain:\(c.yGain)
            y offset:\(c.yOffset)
            z gain:\(c.zGain)
            z offset:\(c.zOffset)
            Volts:\(c.volts)
            Lux:\(c.lux)

            Memory Status
            Number of Pages:\(pages)


            """
    }

    /// `yyyy-MM-dd HH:mm:ss:SSS` of seconds since 1970 read as UTC, without a DateFormatter.
    public static func format(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        let days = Int((Double(millis) / 86_400_000).rounded(.down))
        var rest = millis - days * 86_400_000
        let (y, m, d) = TestFormat.civil(days)
        let h = rest / 3_600_000
        rest %= 3_600_000
        let mi = rest / 60_000
        rest %= 60_000
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let ms = rest % 1000
        return
            "\(y)-\(two(m))-\(two(d)) \(two(h)):\(two(mi)):\(two(rest / 1000)):\(ms < 10 ? "00" : ms < 100 ? "0" : "")\(ms)"
    }
}

/// Small text helpers of the recording writers.
enum TestFormat {
    /// `100` for whole numbers, else the shortest decimal.
    static func short(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }

    /// Year, month and day of a day number since 1970-01-01.
    static func civil(_ days: Int) -> (Int, Int, Int) {
        let (y, m, d) = LocalDateFormat.civil(Int64(days))
        return (Int(y), Int(m), Int(d))
    }
}
