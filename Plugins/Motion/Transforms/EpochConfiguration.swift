import DAQCore

/// A per-epoch activity metric: what `motion.enmo`, `motion.mad` and `motion.anglez` compute,
/// and what any of them adds with `also:`.
public enum EpochMetric: String, ConfigEnum, Sendable {
    /// Mean of max(0, |a| − 1 g) in mg (`enmo_mg`).
    case enmo
    /// Mean absolute deviation of |a| from its epoch mean, in mg (`mad_mg`).
    case mad
    /// Mean of atan(z / √(x² + y²)) in degrees (`anglez_deg`).
    case anglez

    /// The field an epoch sample carries the metric in.
    public var field: String {
        switch self {
        case .enmo: return "enmo_mg"
        case .mad: return "mad_mg"
        case .anglez: return "anglez_deg"
        }
    }
}

/// The keys of the epoch transforms (`motion.enmo`, `motion.mad`, `motion.anglez`): the epoch,
/// the axes, the non-wear flag, the wall clock the epochs align to, and further metrics.
public struct EpochConfiguration: PluginConfiguration {
    @Setting(
        "Epoch length, a whole number of seconds up to 1 h (5 s, 30 s, 60 s); epochs start at multiples of it from local midnight."
    )
    var epoch = Seconds(5)
    @Setting("Field of the first axis, in g.") var x = "x"
    @Setting("Field of the second axis, in g.") var y = "y"
    @Setting("Field of the third axis, in g.") var z = "z"
    @Setting(
        "A sample whose field of this name is true (or, from a CSV, `true` or a number other than 0) counts as non-wear in its epoch's `wear`."
    )
    var nonwear = "nonwear"
    @Setting(
        whenUnset: "the recording's zone (its device clock's, as motion.replay reports it), else UTC",
        "Time zone (IANA name or ±hh:mm) whose wall clock the epochs align to.")
    var timeZone: String?
    @Setting("ENMO below 0 becomes 0, max(0, |a| − 1 g), as GGIR does; false keeps the negatives.")
    var truncate = true
    @Setting("Further metrics in the same epoch samples (enmo, mad, anglez).") var also: [EpochMetric] = []

    /// The longest epoch, an hour (GGIR's longest is 60 min): a longer one would span a
    /// daylight-saving switch, which no epoch does (``EpochGrid``).
    static let longestEpoch = 3_600.0

    public init() {}

    public func validate() throws {
        let e = epoch.value
        if !(e >= 1) || e > Self.longestEpoch || e.rounded() != e {
            throw $epoch.issue("must be a whole number of seconds from 1 s to 1 h (5, 30s, 1m), found \(e) s")
        }
        if let timeZone, ISODate.zone(timeZone) == nil {
            throw $timeZone.issue("unknown time zone '\(timeZone)' (an IANA name such as Europe/Berlin, or ±hh:mm)")
        }
        for (name, setting) in [(x, $x), (y, $y), (z, $z)] where name.isEmpty {
            throw setting.issue("must name a field")
        }
    }

    /// `primary` and the `also` list, each once, in the fixed order enmo, mad, anglez.
    func metrics(primary: EpochMetric) -> [EpochMetric] {
        EpochMetric.allCases.filter { $0 == primary || also.contains($0) }
    }
}
