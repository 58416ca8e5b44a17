import DAQCore
import Foundation

/// The rules an AI's data must follow, and what its value means.
enum ComponentCheck {
    /// GS1's CSET 82: the invariant subset of ISO/IEC 646.
    static let cset82: Set<UInt8> = Set(Array("!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8))
    static let cset39: Set<UInt8> = Set(Array("#-/0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))
    static let base64url: Set<UInt8> = Set(Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=".utf8))

    /// The first problem with `raw` as data of `entry`, as `"offset N: …"`, or `nil`.
    static func validate(_ entry: AIEntry, _ raw: [UInt8], at offset: Int) -> String? {
        if raw.count < entry.minLength {
            return "offset \(offset): AI (\(entry.ai)) needs \(entry.minLength == entry.maxLength ? "" : "at least ")\(entry.minLength) characters, found \(raw.count)"
        }
        if raw.count > entry.maxLength {
            return "offset \(offset): AI (\(entry.ai)) holds at most \(entry.maxLength) characters, found \(raw.count)"
        }
        var i = 0
        for c in entry.components {
            let remaining = raw.count - i
            if remaining == 0 && c.optional { break }
            let take = c.minLength == c.maxLength ? c.maxLength : min(c.maxLength, remaining)
            guard take <= remaining else {
                return "offset \(offset + i): AI (\(entry.ai)) is cut short"
            }
            let part = raw[i..<(i + take)]
            for (k, b) in part.enumerated() where !allowed(b, c.charset) {
                let what = c.charset == .numeric ? "a digit" : "a character of GS1's set"
                return "offset \(offset + i + k): AI (\(entry.ai)) expects \(what), found '\(String(decoding: [b], as: UTF8.self))'"
            }
            for check in c.checks {
                if let problem = run(check, part, ai: entry.ai, at: offset + i) { return problem }
            }
            i += take
        }
        if i < raw.count { return "offset \(offset + i): AI (\(entry.ai)) has \(raw.count - i) characters too many" }
        return nil
    }

    static func allowed(_ b: UInt8, _ charset: AIEntry.Component.Charset) -> Bool {
        switch charset {
        case .numeric: return b >= 0x30 && b <= 0x39
        case .cset82: return cset82.contains(b)
        case .cset39: return cset39.contains(b)
        case .base64url: return base64url.contains(b)
        }
    }

    private static func run(_ check: String, _ part: ArraySlice<UInt8>, ai: String, at offset: Int) -> String? {
        let d = part.map { Int($0) - 0x30 }
        switch check {
        case "csum":
            guard Mod10.isValid(part) else {
                let expected = Mod10.checkDigit(for: part.dropLast()).map(String.init) ?? "?"
                return "offset \(offset + part.count - 1): AI (\(ai)) check digit is \(d.last ?? 0), expected \(expected)"
            }
        case "yymmd0", "yymmdd", "yymmddhh":
            let month = d[2] * 10 + d[3], day = d[4] * 10 + d[5]
            guard (1...12).contains(month) else { return "offset \(offset + 2): AI (\(ai)) month \(month) does not exist" }
            if day == 0 && check == "yymmd0" { break }
            let year = 2000 + d[0] * 10 + d[1]
            guard day >= 1 && day <= daysIn(month: month, year: year) else {
                return "offset \(offset + 4): AI (\(ai)) day \(day) does not exist in month \(month)"
            }
            if check == "yymmddhh", d[6] * 10 + d[7] > 23 { return "offset \(offset + 6): AI (\(ai)) hour \(d[6] * 10 + d[7]) does not exist" }
        case "hhmm":
            if d[0] * 10 + d[1] > 23 || d[2] * 10 + d[3] > 59 { return "offset \(offset): AI (\(ai)) time is not hhmm" }
        default:
            break
        }
        return nil
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// The full year of a two-digit year by GS1's sliding window (General Specifications 7.12):
    /// up to 49 years ahead of `today`, else in the past.
    static func year(_ yy: Int, today: Date) -> Int {
        let current = Calendar(identifier: .gregorian).component(.year, from: today)
        let century = current / 100 * 100
        let diff = yy - current % 100
        if diff >= 51 { return century - 100 + yy }
        if diff <= -50 { return century + 100 + yy }
        return century + yy
    }

    /// The value of valid data: dates as ISO text, measures and amounts as numbers.
    static func value(_ entry: AIEntry, _ raw: [UInt8], today: Date, currency: inout String?) -> Value {
        let first = entry.components.first
        if let checks = first?.checks, let kind = checks.first(where: { $0.hasPrefix("yymmd") }) {
            let d = raw.map { Int($0) - 0x30 }
            let y = year(d[0] * 10 + d[1], today: today)
            let m = d[2] * 10 + d[3]
            var day = d[4] * 10 + d[5]
            if day == 0 && kind == "yymmd0" { day = daysIn(month: m, year: y) }
            var text = "\(y)-\(two(m))-\(two(day))"
            if kind == "yymmddhh" {
                text += "T\(two(d[6] * 10 + d[7]))"
                if raw.count >= 10 { text += ":\(two(d[8] * 10 + d[9]))" } else { text += ":00" }
                if raw.count >= 12 { text += ":\(two(d[10] * 10 + d[11]))" }
            } else if entry.components.count > 1, entry.components[1].checks.contains("hhmm"), raw.count >= 10 {
                text += "T\(two(d[6] * 10 + d[7])):\(two(d[8] * 10 + d[9]))"
            }
            return .string(text)
        }
        if let decimals = entry.decimals {
            var digits = raw[...]
            if entry.hasCurrency {
                currency = String(decoding: digits.prefix(3), as: UTF8.self)
                digits = digits.dropFirst(3)
            }
            var n = 0.0
            for b in digits { n = n * 10 + Double(b - 0x30) }
            var scale = 1.0
            for _ in 0..<decimals { scale *= 10 }
            return .double(n / scale)
        }
        return .string(String(decoding: raw, as: UTF8.self))
    }

    private static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
}
