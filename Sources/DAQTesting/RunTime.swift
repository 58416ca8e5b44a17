import DAQCore
import Foundation

/// Writes times that are a run's own wall time relative to its start, so runs started a day
/// apart compare equal where they should, and a recording's dates stay as they are.
///
/// A time counts as the run's own when it falls from its start to eleven days after it: a live
/// source's timestamps, a log's `startDate`, the bounds of a window of live data. Each compared
/// run starts on a whole second, so these are exact to the millisecond.
struct RunTime {
    let start: Double

    /// Whether `t` (seconds since 1970) is the run's own time.
    func isRunTime(_ t: Double) -> Bool {
        t >= start && t <= start + 1e6
    }

    /// `run+SECONDS` (to the millisecond) for the run's own time, else the time as it is.
    func text(_ t: Double) -> String {
        guard isRunTime(t) else { return "\(t)" }
        return "run+" + String(format: "%.3f", ((t - start) * 1000).rounded() / 1000)
    }

    /// A field's value, a double that is the run's own time made relative.
    func value(_ v: Value) -> String {
        if case .double(let d) = v, isRunTime(d) { return text(d) }
        return "\(v)"
    }

    /// `text` with every ISO-8601 date and every ten-digit number of seconds that is the run's
    /// own time written relative to its start.
    func normalized(_ text: String) -> String {
        var out = replace(Self.isoDate, in: text) { match in
            Self.parseISO(match).flatMap { isRunTime($0) ? self.text($0) : nil }
        }
        out = replace(Self.epochSeconds, in: out) { match in
            Double(match).flatMap { isRunTime($0) ? self.text($0) : nil }
        }
        return out
    }

    private func replace(_ pattern: NSRegularExpression, in text: String, with transform: (String) -> String?)
        -> String
    {
        let ns = text as NSString
        var out = ""
        var last = 0
        for m in pattern.matches(in: text, range: NSRange(location: 0, length: ns.length)) {
            guard let replacement = transform(ns.substring(with: m.range)) else { continue }
            out += ns.substring(with: NSRange(location: last, length: m.range.location - last)) + replacement
            last = m.range.location + m.range.length
        }
        return out + ns.substring(from: last)
    }

    private static let isoDate = try! NSRegularExpression(
        pattern: #"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})"#)
    private static let epochSeconds = try! NSRegularExpression(pattern: #"(?<![\d.])\d{10}(?:\.\d+)?(?![\d])"#)

    private static func parseISO(_ s: String) -> Double? {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let d = f.date(from: s) { return d.timeIntervalSince1970 }
        f.formatOptions = [.withInternetDateTime]
        return f.date(from: s)?.timeIntervalSince1970
    }
}
