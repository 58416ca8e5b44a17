/// Which of a .gt3x's jumps in time the reader fills with the last sample, and which it reports
/// as a gap: the reader's bound on what it emits beyond the samples it read.
///
/// Filling repeats a sample `rate` times a second, so a 300-byte file whose second record is
/// 10⁶ s after its first would otherwise come out as 30 million samples (and a jump near 2³² s as
/// terabytes). A jump is filled only when the device could have been asleep or lost that long:
/// - without an idle-sleep record before it, a device loses seconds, not hours: at most
///   ``lostSeconds``;
/// - after one, it may have slept at most ``sleepSeconds`` (longer than any battery lasts);
/// - either way, never past the end of the recording, as info.txt gives it (the last sample, the
///   stop or the download; ``sleepSeconds`` after the first record when it gives none).
///
/// Fills never overlap and all lie between the first record and that end, so a recording gives
/// at most `rate` samples for each second of the span its own info.txt claims, however its
/// records are forged. Longer jumps are gaps, as the `.cwa` and GENEActiv readers report them.
struct GT3XFillBound {
    /// The longest run of seconds without an idle-sleep record that is filled.
    static let lostSeconds: Int64 = 60
    /// The longest idle sleep that is filled: a month, beyond any device's battery.
    static let sleepSeconds: Int64 = 31 * 86_400

    /// The recording's last second, device local time, as info.txt gives it.
    private let declaredEnd: Int64?
    /// The first activity record's second, once one came.
    private var first: Int64?

    /// A bound for a recording whose info.txt gives `endLocal` (seconds since 1970, device time).
    init(endLocal: Double?) {
        // A date far outside Int64 seconds is no date: as if none were given.
        declaredEnd = endLocal.flatMap { try? Int64(checked: $0, "the end date", rounding: .up) }
    }

    /// Notes an activity record's second; the first one starts the recording.
    mutating func record(at second: Int64) {
        if first == nil { first = second }
    }

    /// Whether the seconds `from..<until` are filled (`true`) or reported as a gap (`false`).
    /// - Parameter asleep: whether an idle-sleep record came before the jump.
    func fills(from: Int64, until: Int64, asleep: Bool) -> Bool {
        let length = until - from
        guard length > 0, length <= (asleep ? Self.sleepSeconds : Self.lostSeconds) else { return false }
        let origin = first ?? from
        let end = declaredEnd ?? origin + Self.sleepSeconds
        // The last filled second is `until - 1`; the record at `until` is the device's own.
        return until <= end + 1
    }
}
