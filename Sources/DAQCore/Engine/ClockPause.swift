/// One pause of a run: where the run clock stood, and when (wall time) it was held and released.
public struct ClockPause: Sendable, Hashable {
    /// Run-clock seconds at which the clock stood still.
    public var uptime: Double
    /// Wall time the pause began, seconds since 1970.
    public var heldDate: Double
    /// Wall time the run resumed, seconds since 1970; `nil` while it is paused.
    public var releasedDate: Double?

    /// Creates a pause.
    public init(uptime: Double, heldDate: Double, releasedDate: Double? = nil) {
        self.uptime = uptime
        self.heldDate = heldDate
        self.releasedDate = releasedDate
    }

    /// Wall seconds the run stood paused; `nil` while it is paused.
    public var pausedSeconds: Double? { releasedDate.map { $0 - heldDate } }
}

extension ClockPause {
    /// The field of a pause or resume marker saying which it is: `pause` or `resume`.
    public static let markerField = "marker"
    /// The field of a resume marker holding the wall seconds the run stood paused.
    public static let pausedSecondsField = "pausedSeconds"

    /// The pause marker: at the run-clock time it began, stamped with the wall time it began.
    public func pauseMarker(stream: String, stepPath: String) -> Sample {
        Sample(
            stream: stream, timestamp: heldDate, uptime: uptime, stepPath: stepPath, kind: .marker,
            fields: [Self.markerField: .string("pause")])
    }

    /// The resume marker, at the same run-clock time (the clock stood still), stamped with the
    /// wall time of the resume; `nil` while the run is paused.
    public func resumeMarker(stream: String, stepPath: String) -> Sample? {
        guard let releasedDate, let pausedSeconds else { return nil }
        return Sample(
            stream: stream, timestamp: releasedDate, uptime: uptime, stepPath: stepPath, kind: .marker,
            fields: [Self.markerField: .string("resume"), Self.pausedSecondsField: .double(pausedSeconds)])
    }
}
