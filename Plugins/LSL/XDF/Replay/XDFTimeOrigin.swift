import DAQCore

/// How `xdf.replay` turns XDF time (seconds on the recorder's LSL clock, after
/// synchronisation; `local_clock()`, which counts from an arbitrary point such as the
/// machine's boot) into seconds since 1970:
///
/// 1. The FileHeader has `<unix_offset>` (daq's `logger.xdf` writes 0: its time stamps are
///    seconds since 1970 already): timestamp = XDF time + unix_offset, exactly. The time base is
///    `recorded`, or `elapsed` when the header says `<time_base>elapsed</time_base>`.
/// 2. Else the FileHeader has `<datetime>` (LabRecorder writes the recorder's wall clock when
///    recording began, to the second, with its UTC offset): that date is taken as the time of
///    the file's earliest synchronised time stamp, so timestamp = datetime + (XDF time − that
///    earliest time stamp). Dates are good to about a second; intervals are exact. The time base
///    is `recorded`, in the zone of the datetime's offset.
/// 3. Else: timestamp = XDF time − the earliest time stamp, time base `elapsed`.
struct XDFTimeOrigin: Sendable, Equatable {
    /// What to add to a synchronised XDF time.
    var offset: Double
    var timeBase: TimeBase
    var timeZone: String?
    /// Which rule gave it, for the log.
    var rule: String

    /// The rule's choice for a file whose header is `header`, without its times: the time base
    /// and zone a descriptor needs, and the rule in words (the descriptor's `dates` metadata).
    static func kind(of header: XDFElement?) -> (base: TimeBase, zone: String?, rule: String) {
        if let header, header.value("unix_offset").flatMap(Double.init) != nil {
            let base: TimeBase = header.value("time_base") == "elapsed" ? .elapsed : .recorded
            return (base, header.value("time_zone"), "XDF time + the file header's unix_offset")
        }
        if let text = header?.value("datetime"), let date = XDFDateTime(text) {
            return (
                .recorded, date.zone, "the file header's datetime (\(text)) is the earliest synchronised time stamp"
            )
        }
        return (.elapsed, nil, "seconds since the earliest synchronised time stamp (the file header has no date)")
    }

    /// The origin for `header`, given the earliest synchronised time stamp of the file.
    init(header: XDFElement?, earliest: Double?) {
        let (base, zone, _) = Self.kind(of: header)
        timeBase = base
        timeZone = zone
        if let header, let offset = header.value("unix_offset").flatMap(Double.init) {
            self.offset = offset
            rule = "XDF time + unix_offset (\(offset)) from the file header"
        } else if let text = header?.value("datetime"), let date = XDFDateTime(text) {
            offset = date.secondsSince1970 - (earliest ?? 0)
            rule = "the file header's datetime \(text) is the earliest time stamp"
        } else {
            offset = -(earliest ?? 0)
            rule = "no date in the file header: seconds since the earliest time stamp"
        }
    }
}

/// An ISO-8601 date-time as XDF file headers write it: `2025-09-24T13:45:12+0800` (LabRecorder),
/// with optional fractional seconds, and `Z`, `±hh:mm`, `±hhmm` or no zone (read as UTC).
struct XDFDateTime {
    var secondsSince1970: Double
    /// The offset as descriptors name zones (`+08:00`), `nil` for `Z` or none.
    var zone: String?

    init?(_ text: String) {
        let b = Array(text.utf8)
        func digits(_ at: Int, _ n: Int) -> Int? {
            guard at + n <= b.count else { return nil }
            var v = 0
            for i in at..<(at + n) {
                guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                v = v * 10 + Int(b[i] - 0x30)
            }
            return v
        }
        guard b.count >= 19, let year = digits(0, 4), b[4] == 0x2D, let month = digits(5, 2), b[7] == 0x2D,
            let day = digits(8, 2), b[10] == 0x54 || b[10] == 0x20, let hour = digits(11, 2), b[13] == 0x3A,
            let minute = digits(14, 2), b[16] == 0x3A, let second = digits(17, 2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var i = 19
        var fraction = 0.0
        if i < b.count && b[i] == 0x2E {
            i += 1
            var scale = 0.1
            while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                fraction += Double(b[i] - 0x30) * scale
                scale /= 10
                i += 1
            }
        }
        var offsetSeconds = 0
        if i < b.count {
            if b[i] == 0x5A && i + 1 == b.count {
                zone = nil
            } else if b[i] == 0x2B || b[i] == 0x2D, let h = digits(i + 1, 2) {
                let colon = i + 3 < b.count && b[i + 3] == 0x3A
                guard let m = digits(i + (colon ? 4 : 3), 2), i + (colon ? 6 : 5) == b.count else { return nil }
                let sign = b[i] == 0x2D ? -1 : 1
                offsetSeconds = sign * (h * 3600 + m * 60)
                zone = (sign < 0 ? "-" : "+") + Self.two(h) + ":" + Self.two(m)
            } else {
                return nil
            }
        }
        let days = Self.daysSince1970(year: year, month: month, day: day)
        let local = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + fraction
        secondsSince1970 = local - Double(offsetSeconds)
    }

    private static func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar: years counted from
    /// March, so the leap day ends a year and the month lengths repeat in a 5-month pattern.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let monthFromMarch = (month + 9) % 12
        let dayOfYear = (153 * monthFromMarch + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
