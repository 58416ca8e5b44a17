/// How one run is carried out, beyond what the pipeline file says.
public struct RunOptions: Sendable {
    /// Stop gracefully once sources have emitted this many samples in all.
    public var maxSamples: Int?
    /// Stop gracefully at this run-clock time: samples stamped later are not emitted.
    public var duration: Double?
    /// The most samples a source reads per batch.
    public var batchSize: Int
    /// Seconds between sink flushes; 0 flushes only at the end.
    public var flushInterval: Double
    /// Where sinks that write files put them, when the run has a directory.
    public var runDirectory: String?
    /// Hashes the files listed in `manifest.json`; `nil` records `null` (see ``ContentHash``).
    public var contentHash: ContentHash?
    /// The wall time the run is said to start at (seconds since 1970), for runs that must
    /// stamp live samples and name their directory alike; now when `nil`.
    public var startDate: Double?

    /// Creates options.
    public init(
        maxSamples: Int? = nil, duration: Double? = nil, batchSize: Int = 1024, flushInterval: Double = 1,
        runDirectory: String? = nil, contentHash: ContentHash? = nil
    ) {
        self.contentHash = contentHash
        self.maxSamples = maxSamples
        self.duration = duration
        self.batchSize = batchSize
        self.flushInterval = flushInterval
        self.runDirectory = runDirectory
    }
}

/// A run that could not start.
public struct PipelineStartError: Error, CustomStringConvertible {
    /// The component that failed to start.
    public var component: String
    /// Why.
    public var message: String
    /// What the plugin threw, when it threw; ``daqError`` takes its code from it.
    public var underlying: (any Error)?
    public var description: String { "\(component): \(message)" }

    init(component: String, message: String, underlying: (any Error)? = nil) {
        self.component = component
        self.message = message
        self.underlying = underlying
    }
}
