import DAQCore
import Foundation

/// How a recording writes its times.
public enum TimeUnit: String, ConfigEnum, Sendable {
    /// Detected from the column name and the values, and stated in the run's log.
    case auto
    case s, ms, us, ns
    /// Date-time text: ISO-8601, or `time_format` when given.
    case datetime

    var scale: Double {
        switch self {
        case .ms: return 1e-3
        case .us: return 1e-6
        case .ns: return 1e-9
        default: return 1
        }
    }

    /// The unit numeric times are in, judged from the column name and the first values.
    static func detect(column: String, values: [Double]) -> (TimeUnit, String) {
        let name = column.lowercased()
        for unit in [TimeUnit.ms, .us, .ns]
        where name.hasSuffix("_\(unit.rawValue)") || name.contains("(\(unit.rawValue))")
            || name.contains("[\(unit.rawValue)]")
        {
            return (unit, "the column name '\(column)' says \(unit.rawValue)")
        }
        guard let first = values.first else { return (.s, "no values; assuming seconds") }
        if abs(first) > 1e17 { return (.ns, "values near \(short(first)) look like nanoseconds since 1970") }
        if abs(first) > 1e14 { return (.us, "values near \(short(first)) look like microseconds since 1970") }
        if abs(first) > 1e11 { return (.ms, "values near \(short(first)) look like milliseconds since 1970") }
        let deltas = zip(values.dropFirst(), values).map { $0 - $1 }.filter { $0 > 0 }.sorted()
        if !deltas.isEmpty, values.allSatisfy({ $0 == $0.rounded() }), deltas[deltas.count / 2] >= 1, abs(first) < 1e9 {
            return (.ms, "whole-number times \(Self.short(deltas[deltas.count / 2])) apart look like milliseconds")
        }
        return (.s, "values look like seconds")
    }

    /// `d` as text, a whole number without its `.0`; one past Int64's range (a corrupt time
    /// read as 1e46) keeps its exponent rather than trapping.
    static func short(_ d: Double) -> String {
        d == d.rounded() && abs(d) < 9e18 ? String(Int64(d)) : String(d)
    }
}

/// Parses date-time text into seconds since 1970.
struct DateTimeParser {
    private let formatter: DateFormatter?
    private let iso: ISO8601DateFormatter
    private let isoFractional: ISO8601DateFormatter
    private let isoLocal: DateFormatter

    init(pattern: String?, timeZone: TimeZone) {
        if let pattern {
            let f = DateFormatter()
            f.locale = Locale(identifier: "en_US_POSIX")
            f.timeZone = timeZone
            f.dateFormat = pattern
            formatter = f
        } else {
            formatter = nil
        }
        iso = ISO8601DateFormatter()
        isoFractional = ISO8601DateFormatter()
        isoFractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        isoLocal = DateFormatter()
        isoLocal.locale = Locale(identifier: "en_US_POSIX")
        isoLocal.timeZone = timeZone
        isoLocal.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS"
    }

    /// Seconds since 1970, or `nil` when the text is not a date-time.
    func parse(_ text: String) -> Double? {
        if let formatter { return formatter.date(from: text)?.timeIntervalSince1970 }
        let t = text.replacingOccurrences(of: " ", with: "T")
        if let d = isoFractional.date(from: t) ?? iso.date(from: t) { return d.timeIntervalSince1970 }
        // No offset: the configured time zone.
        if let d = isoLocal.date(from: t) { return d.timeIntervalSince1970 }
        isoLocal.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        defer { isoLocal.dateFormat = "yyyy-MM-dd'T'HH:mm:ss.SSS" }
        return isoLocal.date(from: t)?.timeIntervalSince1970
    }
}
