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
    /// Sinks with an on-disk queue (`mqtt` or `postgres` with `spool`): samples held there, not yet
    /// acknowledged; `nil` for sinks without one.
    public var spooled: Int?
    /// Sinks: samples sent and neither delivered nor failed yet: in flight, or waiting in a
    /// spool for the next run. `sent == delivered + failed + queued` always holds.
    public var queued: Int { kind == .sink ? Swift.max(0, sent - delivered - failed) : 0 }
    /// The first error message, when the stage failed.
    public var failure: String?

    /// Creates empty counters.
    public init(name: String, kind: PluginKind, type: String) {
        self.name = name
        self.kind = kind
        self.type = type
    }

    /// These counters (of a newer instance of the component) added to those of `older`, an
    /// instance a reload replaced: state, buffer fill and capacity are the newer one's.
    func absorbing(_ older: StageStatistics) -> StageStatistics {
        var s = self
        s.samplesIn += older.samplesIn
        s.samplesOut += older.samplesOut
        s.dropped += older.dropped
        s.errors += older.errors
        s.bufferPeak = max(s.bufferPeak, older.bufferPeak)
        s.sent += older.sent
        s.delivered += older.delivered
        s.failed += older.failed
        s.bytes += older.bytes
        s.failure = s.failure ?? older.failure
        return s
    }
}
