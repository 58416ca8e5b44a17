import DAQCore
import Yams

/// Runs one source by hand: reads every batch until it finishes (or goes idle), without pacing.
public final class SourceHarness {
    /// The source under test.
    public let source: any Source
    /// Its context.
    public let context: StageContext
    private let eventLog = Collector<PipelineEvent>()

    /// Wraps an instance and starts it.
    public init(_ source: any Source, name: String = "under-test", steps: [StepSpec] = []) throws {
        self.source = source
        let events = eventLog
        context = StageContext.detached(
            name: name, kind: .source, clock: RunClock(mode: .virtual), steps: steps, onEvent: { events.append($0) })
        try source.start(context: context)
    }

    /// Builds a plugin from YAML configuration text and starts it.
    public convenience init<T: SourcePlugin>(_ type: T.Type, config yaml: String, name: String = "under-test") throws {
        let configuration = try PluginConfigLoader.decode(T.Configuration.self, yaml: yaml)
        let context = PluginContext(componentName: name, pipelineName: "test", baseDirectory: "", clock: .virtual)
        try self.init(T(configuration: configuration, context: context), name: name)
    }

    /// Reads until the source finishes or goes idle, at most `limit` samples, `batchSize` per read.
    /// - Returns: the samples and the last status.
    public func read(limit: Int = .max, batchSize: Int = 1024) throws -> (samples: [Sample], status: SourceStatus) {
        var out: [Sample] = []
        var status = SourceStatus.more
        while status == .more && out.count < limit {
            var b = Batch(stream: context.name)
            status = try source.read(into: &b, limit: min(batchSize, limit - out.count), context: context)
            out.append(contentsOf: b.samples)
        }
        return (out, status)
    }

    /// Stops the source.
    public func stop() { source.stop(context: context) }

    /// Events the source reported (warnings for skipped rows among them).
    public var events: [PipelineEvent] { eventLog.all }
}
