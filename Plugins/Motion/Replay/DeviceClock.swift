import Foundation

/// A device's wall clock and the zone it ran in: turns the local date-times that device files
/// write into seconds since 1970 (UTC).
///
/// A fixed offset (`GMT +01:00` in a GENEActiv header, `TimeZone` in a `.gt3x`'s info.txt) costs
/// nothing per time; for a named IANA zone (`time_zone:`) the offset is looked up once and kept
/// until the zone's next transition, so daylight-saving changes are followed without a
/// `TimeZone` call per sample.
struct DeviceClock {
    /// The zone of the device's clock.
    enum Zone {
        /// Seconds east of UTC.
        case fixed(Int)
        case named(TimeZone)
    }

    let zone: Zone
    /// The zone as the log and manifest show it: `+01:00`, or an IANA name.
    let label: String
    /// Local times in `low..<high` have the offset `offset` (seconds east of UTC).
    private var low = Double.infinity
    private var high = -Double.infinity
    private var offset = 0.0

    /// A clock in `zone`.
    init(_ zone: Zone) {
        switch zone {
        case .fixed(let seconds): self.init(offsetSeconds: seconds)
        case .named(let tz): self.init(timeZone: tz)
        }
    }

    /// The zone as the log and manifest name it.
    var name: String { label }

    /// A clock at a fixed offset east of UTC.
    init(offsetSeconds: Int) {
        zone = .fixed(offsetSeconds)
        label = Self.offsetLabel(offsetSeconds)
    }

    /// A clock in a named zone; UTC is given as a fixed offset of zero.
    init(timeZone: TimeZone) {
        if timeZone.identifier == "UTC" || timeZone.identifier == "GMT" {
            zone = .fixed(0)
            label = "UTC"
        } else {
            zone = .named(timeZone)
            label = timeZone.identifier
        }
    }

    /// Seconds since 1970 (UTC) of a local wall-clock time given as seconds since 1970 read as UTC.
    mutating func utc(local: Double) -> Double {
        switch zone {
        case .fixed(let seconds): return local - Double(seconds)
        case .named(let tz):
            if local >= low && local < high { return local - offset }
            // Two steps: the offset at the guessed instant, then at the instant it gives (the
            // guess is off only within a transition's hour).
            let guess = local - Double(tz.secondsFromGMT(for: Date(timeIntervalSince1970: local)))
            offset = Double(tz.secondsFromGMT(for: Date(timeIntervalSince1970: guess)))
            let utc = local - offset
            low = local
            if let next = tz.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: utc)) {
                high = next.timeIntervalSince1970 + offset
            } else {
                high = .infinity
            }
            return utc
        }
    }

    /// UTC seconds of a local reading in whole seconds (a `.gt3x` record's time).
    mutating func utc(_ local: Int64) -> Int64 {
        Int64(utc(local: Double(local)))
    }

    /// `+01:00` style text for an offset east of UTC.
    static func offsetLabel(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let minutes = abs(seconds) / 60
        let h = minutes / 60
        let m = minutes % 60
        return "\(sign)\(h < 10 ? "0" : "")\(h):\(m < 10 ? "0" : "")\(m)"
    }

    /// Parses a zone written as an offset: `GMT +01:00`, `GMT-5`, `UTC+0530`, `+01:00`; `nil` otherwise.
    static func parseOffset(_ text: String) -> Int? {
        var s = Substring(text.trimmingCharacters(in: .whitespaces)).uppercased()[...]
        for prefix in ["GMT", "UTC"] where s.hasPrefix(prefix) { s = s.dropFirst(prefix.count) }
        s = s.drop { $0 == " " }
        if s.isEmpty { return 0 }
        guard let signChar = s.first, signChar == "+" || signChar == "-" else { return nil }
        let body = s.dropFirst().filter { $0 != " " }
        let parts = body.split(separator: ":")
        var hours = 0
        var minutes = 0
        if parts.count == 2, let h = Int(parts[0]), let m = Int(parts[1]) {
            (hours, minutes) = (h, m)
        } else if parts.count == 1, let n = Int(parts[0]) {
            (hours, minutes) = parts[0].count > 2 ? (n / 100, n % 100) : (n, 0)
        } else {
            return nil
        }
        guard hours <= 14, minutes < 60 else { return nil }
        let seconds = (hours * 60 + minutes) * 60
        return signChar == "-" ? -seconds : seconds
    }
}
