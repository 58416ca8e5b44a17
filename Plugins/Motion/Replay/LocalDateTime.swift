/// Date-time text as devices write it, parsed from bytes without Foundation: digit groups for
/// the date (in the order the file states), then hours, minutes, seconds and a fraction after
/// `.` or `:` (`2024-01-11 15:35:31:000`, `5/18/2015 00:00:00.033`).
enum LocalDateTime {
    /// The order of day, month and year in the date part.
    enum Order: Sendable {
        case ymd, mdy, dmy

        /// The order a pattern such as `M/d/yyyy` or `dd.MM.yyyy` states.
        init?(pattern: String) {
            let letters = pattern.lowercased().filter { "dmy".contains($0) }
            var seen: [Character] = []
            for c in letters where !seen.contains(c) { seen.append(c) }
            switch String(seen) {
            case "ymd": self = .ymd
            case "mdy": self = .mdy
            case "dmy": self = .dmy
            default: return nil
            }
        }
    }

    /// Seconds since 1970 of the wall-clock time read as UTC, or `nil` when the text is not one.
    /// A time without a date part (`needDate: false`) gives seconds since midnight.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, order: Order = .ymd, needDate: Bool = true) -> Double? {
        var groups: (Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0)
        var fraction = 0.0
        var count = 0
        var i = 0
        let n = bytes.count
        while i < n && bytes[i] == 0x20 { i += 1 }
        while i < n {
            var value = 0
            var digits = 0
            while i < n, bytes[i] &- 48 < 10 {
                value = value &* 10 &+ Int(bytes[i] &- 48)
                digits += 1
                i += 1
            }
            guard digits > 0, digits <= 9 else { return nil }
            let wanted = needDate ? 6 : 3
            if count == wanted {
                // The fraction of a second: its digits give its scale.
                var scale = 1.0
                for _ in 0..<digits { scale *= 10 }
                fraction = Double(value) / scale
                count += 1
                while i < n && bytes[i] == 0x20 { i += 1 }
                guard i == n else { return nil }
                break
            }
            switch count {
            case 0: groups.0 = value
            case 1: groups.1 = value
            case 2: groups.2 = value
            case 3: groups.3 = value
            case 4: groups.4 = value
            default: groups.5 = value
            }
            count += 1
            guard i < n else { break }
            let sep = bytes[i]
            guard
                sep == UInt8(ascii: "-") || sep == UInt8(ascii: "/") || sep == UInt8(ascii: ".")
                    || sep == UInt8(ascii: ":")
                    || sep == 0x20 || sep == UInt8(ascii: "T")
            else {
                while i < n && bytes[i] == 0x20 { i += 1 }
                guard i == n else { return nil }
                break
            }
            i += 1
            while i < n && bytes[i] == 0x20 { i += 1 }
        }
        if !needDate {
            guard count >= 2 else { return nil }
            let (h, m, s) = (groups.0, groups.1, count >= 3 ? groups.2 : 0)
            guard h < 24, m < 60, s < 61 else { return nil }
            return Double(h * 3600 + m * 60 + s) + fraction
        }
        guard count >= 5 else { return nil }
        var (year, month, day): (Int, Int, Int)
        switch order {
        case .ymd: (year, month, day) = (groups.0, groups.1, groups.2)
        case .mdy: (month, day, year) = (groups.0, groups.1, groups.2)
        case .dmy: (day, month, year) = (groups.0, groups.1, groups.2)
        }
        if year < 100 { year += 2000 }
        let (h, m, s) = (groups.3, groups.4, count >= 6 ? groups.5 : 0)
        guard (1...12).contains(month), (1...31).contains(day), h < 24, m < 60, s < 61 else { return nil }
        return Double(daysFromCivil(year, month, day) * 86_400 + h * 3600 + m * 60 + s) + fraction
    }

    /// A date alone (`5/18/2015`) from bytes, as seconds since 1970 at midnight read as UTC.
    static func parseDay(_ bytes: UnsafeBufferPointer<UInt8>, order: Order) -> Double? {
        var groups = (0, 0, 0)
        var count = 0
        var i = 0
        let n = bytes.count
        while i < n && bytes[i] == 0x20 { i += 1 }
        var end = n
        while end > i && bytes[end - 1] == 0x20 { end -= 1 }
        while i < end && count < 3 {
            var value = 0
            var digits = 0
            while i < end, bytes[i] &- 48 < 10, digits < 5 {
                value = value * 10 + Int(bytes[i] &- 48)
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if count == 0 { groups.0 = value } else if count == 1 { groups.1 = value } else { groups.2 = value }
            count += 1
            if i < end { i += 1 }
        }
        guard count == 3, i >= end else { return nil }
        var (year, month, day): (Int, Int, Int)
        switch order {
        case .ymd: (year, month, day) = groups
        case .mdy: (month, day, year) = groups
        case .dmy: (day, month, year) = groups
        }
        if year < 100 { year += 2000 }
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        return Double(daysFromCivil(year, month, day) * 86_400)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(_ y0: Int, _ m: Int, _ d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
