import DAQCore
import Foundation

/// The rules an AI's data must follow, and what its value means.
enum ComponentCheck {
    /// GS1's CSET 82: the invariant subset of ISO/IEC 646.
    static let cset82: Set<UInt8> = Set(
        Array("!\"%&'()*+,-./0123456789:;<=>?ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz".utf8))
    static let cset39: Set<UInt8> = Set(Array("#-/0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8))
    static let base64url: Set<UInt8> = Set(
        Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=".utf8))

    /// The first problem with `raw` as data of `entry`, as `"offset N: …"`, or `nil`.
    static func validate(_ entry: AIEntry, _ raw: [UInt8], at offset: Int) -> String? {
        if raw.count < entry.minLength {
            return
                "offset \(offset): AI (\(entry.ai)) needs \(entry.minLength == entry.maxLength ? "" : "at least ")\(entry.minLength) characters, found \(raw.count)"
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
                return
                    "offset \(offset + i + k): AI (\(entry.ai)) expects \(what), found '\(String(decoding: [b], as: UTF8.self))'"
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
        func two(_ i: Int) -> Int { d[i] * 10 + d[i + 1] }
        switch check {
        case "csum":
            guard Mod10.isValid(part) else {
                let expected = Mod10.checkDigit(for: part.dropLast()).map(String.init) ?? "?"
                return
                    "offset \(offset + part.count - 1): AI (\(ai)) check digit is \(d.last ?? 0), expected \(expected)"
            }
        case "csumalpha":
            guard part.count >= 2, let expected = CheckCharacterPair.pair(for: part.dropLast(2)) else {
                return "offset \(offset): AI (\(ai)) is too short for its check character pair"
            }
            if Array(part.suffix(2)) != expected {
                let found = String(decoding: part.suffix(2), as: UTF8.self)
                return
                    "offset \(offset + part.count - 2): AI (\(ai)) check characters are '\(found)', expected '\(String(decoding: expected, as: UTF8.self))'"
            }
        case "yymmd0", "yymmdd", "yymmddhh", "yyyymmdd":
            let long = check == "yyyymmdd" ? 2 : 0
            let month = two(2 + long)
            let day = two(4 + long)
            guard (1...12).contains(month) else {
                return "offset \(offset + 2 + long): AI (\(ai)) month \(month) does not exist"
            }
            if day == 0 && check == "yymmd0" { break }
            let year = long > 0 ? two(0) * 100 + two(2) : 2000 + two(0)
            guard day >= 1 && day <= daysIn(month: month, year: year) else {
                return "offset \(offset + 4 + long): AI (\(ai)) day \(day) does not exist in month \(month)"
            }
            if check == "yymmddhh", two(6) > 23 {
                return "offset \(offset + 6): AI (\(ai)) hour \(two(6)) does not exist"
            }
        case "hhmm":
            if two(0) > 23 || two(2) > 59 { return "offset \(offset): AI (\(ai)) time is not hhmm" }
        case "hhmi":
            // `9999` is no time: the date alone counts (GS1 General Specifications, AIs 4324/4325).
            if two(0) == 99 && two(2) == 99 { break }
            if two(0) > 23 || two(2) > 59 { return "offset \(offset): AI (\(ai)) time is not hhmm (or 9999)" }
        case "hh":
            if two(0) > 23 { return "offset \(offset): AI (\(ai)) hour \(two(0)) does not exist" }
        case "mi", "ss":
            if two(0) > 59 {
                return "offset \(offset): AI (\(ai)) \(check == "mi" ? "minute" : "second") \(two(0)) does not exist"
            }
        case "nonzero":
            if d.allSatisfy({ $0 == 0 }) { return "offset \(offset): AI (\(ai)) must not be zero here" }
        case "zero":
            if d.contains(where: { $0 != 0 }) { return "offset \(offset): AI (\(ai)) must be 0 here" }
        case "yesno":
            if d[0] > 1 { return "offset \(offset): AI (\(ai)) expects 0 or 1, found \(d[0])" }
        case "winding":
            if ![0, 1, 9].contains(d[0]) { return "offset \(offset): AI (\(ai)) winding direction must be 0, 1 or 9" }
        case "hyphen":
            if part.contains(where: { $0 != UInt8(ascii: "-") }) {
                return "offset \(offset): AI (\(ai)) expects '-' here"
            }
        case "pieceoftotal":
            let piece = two(0)
            let total = two(2)
            if piece == 0 || total == 0 || piece > total {
                return "offset \(offset): AI (\(ai)) piece \(piece) of \(total) is not a piece of the total"
            }
        case "nozeroprefix":
            if part.count > 1 && part.first == UInt8(ascii: "0") {
                return "offset \(offset): AI (\(ai)) must not begin with 0"
            }
        case "hasnondigit":
            if part.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) {
                return "offset \(offset): AI (\(ai)) must hold a character that is not a digit"
            }
        default:
            // Lists (ISO 3166, ISO 4217, IBAN, coupon layouts, …) are not checked: the data's
            // character set and length are.
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

    /// The value of valid data: dates as ISO text (with the time when the AI has one), measures
    /// and amounts as numbers.
    static func value(_ entry: AIEntry, _ raw: [UInt8], today: Date, currency: inout String?) -> Value {
        let first = entry.components.first
        if let checks = first?.checks, let kind = checks.first(where: { $0.hasPrefix("yymmd") || $0 == "yyyymmdd" }) {
            let d = raw.map { Int($0) - 0x30 }
            func two(_ i: Int) -> Int { d[i] * 10 + d[i + 1] }
            let long = kind == "yyyymmdd" ? 2 : 0
            let y = long > 0 ? two(0) * 100 + two(2) : year(two(0), today: today)
            let m = two(2 + long)
            var day = two(4 + long)
            if day == 0 && kind == "yymmd0" { day = daysIn(month: m, year: y) }
            var text = "\(y)-\(Self.two(m))-\(Self.two(day))"
            // The time follows the date: hhmm as one part, or hh then optional mi and ss.
            var i = 6 + long
            for c in entry.components.dropFirst() where i + 2 <= raw.count {
                if c.checks.contains("hhmm") || c.checks.contains("hhmi") {
                    // `9999` (hhmi): the date alone.
                    guard i + 4 <= raw.count, !(two(i) == 99 && two(i + 2) == 99) else { break }
                    text += "T\(Self.two(two(i))):\(Self.two(two(i + 2)))"
                    i += 4
                } else if c.checks.contains("hh") {
                    text += "T\(Self.two(two(i)))"
                    text += i + 4 <= raw.count ? ":\(Self.two(two(i + 2)))" : ":00"
                    if i + 6 <= raw.count { text += ":\(Self.two(two(i + 4)))" }
                    break
                } else {
                    break
                }
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
