import DAQCore
import Yams

/// Runs one sink by hand on a virtual clock: start it, write batches, flush, finish, and read
/// the events it reported (delivered, failed) — no pipeline, no threads. Each call runs on the
/// stage's queue, as in a pipeline, so never at once with the plugin's timers and watches.
///
/// ```swift
/// let h = try SinkHarness(FileSink.self, config: "path: out.jsonl")
/// try h.write([Sample(uptime: 0, fields: ["v": 1.0])])
/// try h.finish()
/// ```
public final class SinkHarness {
    /// The sink under test.
    public let sink: any Sink
    /// Its context.
    public let context: StageContext
    private let eventLog = Collector<PipelineEvent>()

    /// Wraps an instance and starts it.
    /// - Throws: what the sink's `start` throws.
    public init(_ sink: any Sink, name: String = "under-test", steps: [StepSpec] = []) throws {
        self.sink = sink
        let events = eventLog
        context = StageContext.detached(
            name: name, kind: .sink, clock: RunClock(mode: .virtual), steps: steps, onEvent: { events.append($0) })
        let context = self.context
        try context.onStageQueue { try sink.start(context: context) }
        try context.awaitStart()
    }

    /// Builds a plugin from YAML configuration text, validating it as `daq` would, and starts it.
    /// - Throws: the decoding error or ``ConfigIssue`` validation raises, or what `start` throws.
    public convenience init<T: SinkPlugin>(_ type: T.Type, config yaml: String = "{}", name: String = "under-test")
        throws
    {
        let configuration = try PluginConfigLoader.decode(T.Configuration.self, yaml: yaml)
        let context = PluginContext(componentName: name, pipelineName: "test", baseDirectory: "", clock: .virtual)
        try self.init(T(configuration: configuration, context: context), name: name)
    }

    /// Writes samples as one batch.
    public func write(_ samples: [Sample]) throws {
        try write(Batch(stream: "input", samples: samples))
    }

    /// Writes one batch.
    public func write(_ batch: Batch) throws {
        try context.onStageQueue { try sink.write(batch, context: context) }
    }

    /// Flushes, then closes the sink, as the engine does after the last batch, waiting for a
    /// finish that completes later; its timers and watches end with it.
    public func finish() throws {
        defer { context.endTasks() }
        try context.onStageQueue {
            try sink.flush(context: context)
            try sink.finish(context: context)
        }
        try context.awaitEnd()
    }

    /// Events the sink reported.
    public var events: [PipelineEvent] { eventLog.all }
}
