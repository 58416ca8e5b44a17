/// What a sample records.
public enum SampleKind: UInt8, Sendable, Hashable, CaseIterable {
    /// A measurement.
    case data
    /// A step transition, written by loggers at start, at each step change and at stop.
    case marker
    /// A lifecycle event such as `scan.timeout`.
    case event

    /// The name used in logs and JSON output.
    public var name: String {
        switch self {
        case .data: return "data"
        case .marker: return "marker"
        case .event: return "event"
        }
    }
}

/// One timestamped record, materialized on its own.
///
/// Stages exchange ``Batch``es, which store samples column by column; `Sample` is the
/// convenient row view for plugin code and tests that handle a few samples at a time.
public struct Sample: Sendable, Hashable {
    /// The id of the stage that produced it.
    public var stream: String
    /// Seconds since 1970: wall time at acquisition, or the recording's own time.
    public var timestamp: Double
    /// Seconds on the run clock since the run started.
    public var uptime: Double
    /// The step current when it was taken, `/`-separated, `""` if none.
    public var stepPath: String
    /// Whether it is data, a step marker or an event.
    public var kind: SampleKind
    /// The fields, in the order the producer wrote them.
    public var fields: Fields

    /// Creates a sample.
    public init(
        stream: String = "",
        timestamp: Double = 0,
        uptime: Double,
        stepPath: String = "",
        kind: SampleKind = .data,
        fields: Fields = [:]
    ) {
        self.stream = stream
        self.timestamp = timestamp
        self.uptime = uptime
        self.stepPath = stepPath
        self.kind = kind
        self.fields = fields
    }

    /// The value of a field, or `nil` when absent.
    public subscript(field: String) -> Value? {
        get { fields[field] }
        set { fields[field] = newValue }
    }
}
