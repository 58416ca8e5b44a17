import DAQCore

/// The keys of `summary.daily`: where the table goes, which epoch field it summarises, the
/// calendar it cuts days by, and the thresholds of its columns.
public struct DailySummaryConfiguration: PluginConfiguration {
    /// The table's format.
    public enum Format: String, ConfigEnum, Sendable {
        case auto, csv, json
    }

    @Setting(type: "path", required: "The table to write (one row per day); parent directories are created.")
    var path: String
    @Setting("auto: json for *.json, else csv. json is an array of one object per day, keyed as the CSV header.")
    var format = Format.auto
    @Setting("The epoch field summarised, in mg: motion.enmo's enmo_mg, or motion.mad's mad_mg.") var field = "enmo_mg"
    @Setting(
        "The epoch field holding the fraction of its samples worn (motion.enmo's wear); an epoch counts as worn when at least half its samples were. Without it every epoch is worn."
    )
    var wear = "wear"
    @Setting(
        whenUnset: "the recording's zone (its device clock's, as motion.replay reports it), else UTC",
        "Time zone (IANA name or ±hh:mm) whose calendar days the rows are; give the epoch stage's.")
    var timeZone: String?
    @Setting(
        whenUnset: "the largest length every epoch start is a multiple of, from local midnight",
        "Epoch length of the input, as the epoch stage's `epoch`; an epoch off that grid is an error.")
    var epoch: Seconds?
    @Setting(
        "Upper bounds of the intensity bands in mg, increasing: [40, 100, 400] gives minutes below 40, 40 to 100, 100 to 400 and 400 up (each band includes its lower bound)."
    )
    var bands: [Double] = [40, 100, 400]
    @Setting("Length of the most (M5) and least (L5) active windows, whole minutes up to 12 h.") var window = Seconds(
        18_000)
    @Setting("A day worn for fewer hours than this has low_wear: true.") var minWearHours = 16.0

    public init() {}

    public func validate() throws {
        if path.isEmpty { throw $path.issue("must not be empty") }
        if field.isEmpty { throw $field.issue("must name a field") }
        if wear.isEmpty { throw $wear.issue("must name a field") }
        if let timeZone, ISODate.zone(timeZone) == nil {
            throw $timeZone.issue("unknown time zone '\(timeZone)' (an IANA name such as Europe/Berlin, or ±hh:mm)")
        }
        if let e = epoch?.value, !(e >= 1) || e > 3_600 || e.rounded() != e {
            throw $epoch.issue("must be a whole number of seconds from 1 s to 1 h (5, 30s, 1m), found \(e) s")
        }
        if bands.isEmpty { throw $bands.issue("name at least one bound, such as [40, 100, 400]") }
        for (i, b) in bands.enumerated() {
            if !b.isFinite { throw $bands.issue("bound \(i + 1) is not a finite number") }
            if i > 0 && !(b > bands[i - 1]) {
                throw $bands.issue("must increase: bound \(i + 1), \(b), is not above \(bands[i - 1])")
            }
        }
        let w = window.value
        if !(w >= 60) || w > 43_200 || (w / 60).rounded() != w / 60 {
            throw $window.issue("must be whole minutes from 1m to 12h, found \(w) s")
        }
        if !(minWearHours >= 0 && minWearHours <= 25) {
            throw $minWearHours.issue("must be 0 to 25 hours, found \(minWearHours)")
        }
    }

    /// Whether the table is JSON.
    var writesJSON: Bool { format == .json || (format == .auto && path.hasSuffix(".json")) }
}
