import DAQCore
import Foundation

/// The calendar day of a time zone that holds an instant: its bounds in UTC seconds and its
/// date. A daylight-saving day is 23 or 25 hours long (midnight to midnight on the local clock).
///
/// The calendar is asked once per day, not once per epoch: ``locate(_:)`` is two comparisons
/// while the instant stays in the day found last.
struct CalendarDay {
    private let calendar: Calendar
    /// UTC seconds `[start, end)`; empty before the first ``locate(_:)``.
    private(set) var start = Double.infinity
    private(set) var end = -Double.infinity
    /// `yyyy-MM-dd` on the local calendar.
    private(set) var date = ""

    init(zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        self.calendar = calendar
    }

    var zone: TimeZone { calendar.timeZone }

    /// Seconds from local midnight to the next.
    var length: Double { end - start }

    /// Holds no day: the next ``locate(_:)`` asks the calendar again.
    mutating func forget() {
        start = .infinity
        end = -.infinity
    }

    /// Moves to the day holding `t` (UTC seconds); returns whether that is another day.
    @discardableResult
    mutating func locate(_ t: Double) -> Bool {
        if t >= start && t < end { return false }
        let instant = Date(timeIntervalSince1970: t)
        guard let interval = calendar.dateInterval(of: .day, for: instant) else {
            // Only for instants beyond the calendar's range: a UTC day then.
            start = (t / 86_400).rounded(.down) * 86_400
            end = start + 86_400
            date = Self.text(calendar.dateComponents([.year, .month, .day], from: instant))
            return true
        }
        start = interval.start.timeIntervalSince1970
        end = interval.end.timeIntervalSince1970
        date = Self.text(calendar.dateComponents([.year, .month, .day], from: interval.start))
        return true
    }

    private static func text(_ c: DateComponents) -> String {
        var out: [UInt8] = []
        pad(c.year ?? 0, 4, &out)
        out.append(UInt8(ascii: "-"))
        pad(c.month ?? 0, 2, &out)
        out.append(UInt8(ascii: "-"))
        pad(c.day ?? 0, 2, &out)
        return String(decoding: out, as: UTF8.self)
    }

    private static func pad(_ value: Int, _ width: Int, _ out: inout [UInt8]) {
        var digits: [UInt8] = []
        NumberFormatting.appendInt(Int64(value), to: &digits)
        for _ in digits.count..<max(width, digits.count) { out.append(UInt8(ascii: "0")) }
        out.append(contentsOf: digits)
    }
}
