import Foundation

/// Epoch boundaries on a time zone's wall clock: epochs of `length` seconds starting at each
/// local midnight, so a 5 s epoch starts at 10:00:00, 10:00:05, … local time whatever the
/// zone's offset from UTC. A length that does not divide a day leaves the day's last epoch
/// short: it ends at midnight.
///
/// An epoch never spans a change of the zone's offset (a daylight-saving switch). Switches fall
/// on whole hours in nearly every zone, so for lengths that divide an hour they fall on a
/// boundary anyway; otherwise the epoch ends at the switch and the next one starts there.
///
/// The zone's offset is looked up once per offset period, not per epoch: epochs inside the
/// cached period cost a few floating-point operations.
struct EpochGrid {
    /// Seconds per epoch, a whole number.
    let length: Double
    let zone: TimeZone
    /// The zone's offset from UTC in seconds, known to hold from `from` until `until` (UTC seconds).
    private var offset = 0.0
    private var from = Double.infinity
    private var until = -Double.infinity
    /// The switch to `offset`, when it came less than an epoch before `from`: no epoch starts before it.
    private var switched = -Double.infinity

    private static let day = 86_400.0

    init(length: Double, zone: TimeZone) {
        self.length = length
        self.zone = zone
    }

    /// The epoch holding `t` (seconds since 1970), as UTC seconds `[start, end)`; both are whole
    /// seconds, so comparing a sample's time with them is exact.
    mutating func epoch(containing t: Double) -> (start: Double, end: Double) {
        if !(t >= from && t < until) { refresh(at: t) }
        let local = t + offset
        let midnight = (local / Self.day).rounded(.down) * Self.day
        let start = midnight + ((local - midnight) / length).rounded(.down) * length
        let end = min(start + length, midnight + Self.day)
        return (max(start - offset, switched), min(end - offset, until))
    }

    /// Looks up the offset at `t` and the span it holds over: back to a switch within the last
    /// epoch length (an epoch must not start before it), forward to the next switch.
    private mutating func refresh(at t: Double) {
        let date = Date(timeIntervalSince1970: t)
        offset = Double(zone.secondsFromGMT(for: date))
        let lookBack = t - length
        if let previous = zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: lookBack)),
            previous.timeIntervalSince1970 <= t
        {
            from = previous.timeIntervalSince1970
            switched = from
        } else {
            from = lookBack
            switched = -.infinity
        }
        until = zone.nextDaylightSavingTimeTransition(after: date)?.timeIntervalSince1970 ?? .infinity
    }
}
