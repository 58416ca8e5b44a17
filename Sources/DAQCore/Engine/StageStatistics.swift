/// Counters of one stage, as the summary, the manifest and the live status show them.
public struct StageStatistics: Sendable, Hashable {
    /// The component's name.
    public var name: String
    /// Source, transform or sink.
    public var kind: PluginKind
    /// The plugin type.
    public var type: String
    /// The stage's state.
    public var state: LifecycleState = .idle
    /// Samples taken from the input buffer.
    public var samplesIn = 0
    /// Samples emitted downstream (sources and transforms) or written (sinks).
    public var samplesOut = 0
    /// Samples dropped by this stage's input buffer.
    public var dropped = 0
    /// Errors the stage reported.
    public var errors = 0
    /// Samples in the input buffer now.
    public var buffered = 0
    /// The most samples the input buffer ever held.
    public var bufferPeak = 0
    /// The input buffer's capacity; 0 for sources.
    public var bufferCapacity = 0
    /// Sinks: samples sent, delivered and failed, and bytes sent.
    public var sent = 0
    public var delivered = 0
    public var failed = 0
    public var bytes = 0
    /// Sinks with an on-disk queue (`mqtt` with `spool`): samples held there, not yet
    /// acknowledged; `nil` for sinks without one.
    public var spooled: Int?
    /// The first error message, when the stage failed.
    public var failure: String?

    /// Creates empty counters.
    public init(name: String, kind: PluginKind, type: String) {
        self.name = name
        self.kind = kind
        self.type = type
    }
}
