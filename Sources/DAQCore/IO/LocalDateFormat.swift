import Foundation

/// Writes instants as ISO 8601 dates on a zone's wall clock, with the offset in force then
/// (`2026-03-29T01:59:59.990+01:00`), straight into a byte buffer.
///
/// Cheap enough for every sample of a logger: the zone's offset is looked up once per
/// daylight-saving period, and the date is worked out with integer arithmetic (Hinnant's
/// days-to-civil), not a `DateFormatter`.
public struct LocalDateFormat: Sendable {
    private var offsets: ZoneOffsets

    /// A format for `zone`'s wall clock.
    public init(zone: TimeZone) { offsets = ZoneOffsets(zone) }

    /// The zone the dates are written in.
    public var zone: TimeZone { offsets.zone }

    /// Appends the date of `secondsSince1970` (UTC), to the millisecond.
    public mutating func append(_ secondsSince1970: Double, to out: inout [UInt8]) {
        let offset = Int64(offsets.offset(at: secondsSince1970))
        let ms = Int64((secondsSince1970 * 1000).rounded()) + offset * 1000
        let (seconds, milli) = ms.quotientAndRemainder(dividingBy: 1000)
        let (s, m) = milli < 0 ? (seconds - 1, milli + 1000) : (seconds, milli)
        var (days, second) = s.quotientAndRemainder(dividingBy: 86_400)
        if second < 0 {
            days -= 1
            second += 86_400
        }
        let (year, month, day) = Self.civil(days)
        Self.digits(year, 4, &out)
        out.append(UInt8(ascii: "-"))
        Self.digits(month, 2, &out)
        out.append(UInt8(ascii: "-"))
        Self.digits(day, 2, &out)
        out.append(UInt8(ascii: "T"))
        Self.digits(second / 3600, 2, &out)
        out.append(UInt8(ascii: ":"))
        Self.digits(second / 60 % 60, 2, &out)
        out.append(UInt8(ascii: ":"))
        Self.digits(second % 60, 2, &out)
        out.append(UInt8(ascii: "."))
        Self.digits(m, 3, &out)
        out.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
        Self.digits(abs(offset) / 3600, 2, &out)
        out.append(UInt8(ascii: ":"))
        Self.digits(abs(offset) / 60 % 60, 2, &out)
    }

    /// The date of `secondsSince1970` as a string, for the few places that want one.
    public mutating func string(_ secondsSince1970: Double) -> String {
        var bytes: [UInt8] = []
        append(secondsSince1970, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Year, month and day of a count of days since 1970-01-01 (proleptic Gregorian).
    public static func civil(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func digits(_ value: Int64, _ width: Int, _ out: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        var v = value
        while divisor > 0 {
            out.append(UInt8(ascii: "0") + UInt8(v / divisor % 10))
            v %= divisor
            divisor /= 10
        }
    }
}

/// A zone's offset from UTC at an instant, looked up once per daylight-saving period rather
/// than once per sample.
public struct ZoneOffsets: Sendable {
    /// The zone looked up.
    public let zone: TimeZone
    private var from = Double.infinity
    private var until = -Double.infinity
    private var offset = 0.0

    /// Offsets of `zone`.
    public init(_ zone: TimeZone) { self.zone = zone }

    /// Seconds east of UTC at `utc` (seconds since 1970).
    public mutating func offset(at utc: Double) -> Double {
        if utc >= from && utc < until { return offset }
        let date = Date(timeIntervalSince1970: utc)
        offset = Double(zone.secondsFromGMT(for: date))
        from = utc
        until = zone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
        return offset
    }
}
