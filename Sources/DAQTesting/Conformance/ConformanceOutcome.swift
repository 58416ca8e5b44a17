import DAQCore

/// What one conformance run of a plugin produced, for ``ConformanceSpec/checkOutput``.
public struct ConformanceOutcome: Sendable {
    /// How the run ended.
    public var result: RunResult
    /// The plugin's own counters (samples in and out, sent, delivered, failed).
    public var subject: StageStatistics
    /// How many samples were fed to it (transforms and sinks).
    public var fed: Int
    /// Data samples that reached the sink after it (sources and transforms).
    public var received: Int
    /// The first few of them.
    public var firstReceived: [Sample]
    /// Every event, in order.
    public var events: [PipelineEvent]
    /// The run's `${CONFORMANCE_DIR}`.
    public var directory: String
}
