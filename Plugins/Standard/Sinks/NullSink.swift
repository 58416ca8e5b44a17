import DAQCore

/// Discards samples, counting them: for benchmarks and for trying a pipeline's upstream.
public final class NullSink: SinkPlugin {
    public struct Configuration: PluginConfiguration {
        public init() {}
    }

    public static let typeName = "null"
    public static let summary = "Discards samples (counted in the summary); for benchmarks."

    public init(configuration: Configuration, context: PluginContext) throws {}

    public func write(_ batch: Batch, context: StageContext) throws {
        context.delivered(samples: batch.count)
    }
}
