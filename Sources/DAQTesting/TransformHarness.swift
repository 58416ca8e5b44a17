import DAQCore
import Yams

/// Runs one transform by hand on a virtual clock, the way NIO's `EmbeddedChannel` runs a
/// handler: push samples in, read what comes out. No threads, no waiting: each call runs on the
/// stage's queue, as in a pipeline, so never at once with the plugin's timers and watches.
///
/// ```swift
/// let h = try TransformHarness(WindowTransform.self, config: "size: 1\nfield: value")
/// let out = try h.push([Sample(uptime: 0.5, fields: ["value": 1.0])])
/// let rest = try h.finish()
/// ```
public final class TransformHarness {
    /// The transform under test.
    public let transform: any Transform
    /// Its context.
    public let context: StageContext
    private let emitted = Collector<Batch>()
    private let eventLog = Collector<PipelineEvent>()

    /// Wraps an instance and starts it.
    public init(_ transform: any Transform, name: String = "under-test", steps: [StepSpec] = []) throws {
        self.transform = transform
        let emitted = self.emitted
        let events = eventLog
        context = StageContext.detached(
            name: name, kind: .transform, clock: RunClock(mode: .virtual), steps: steps,
            onEmit: { emitted.append($0) }, onEvent: { events.append($0) })
        let context = self.context
        try context.onStageQueue { try transform.start(context: context) }
    }

    /// Builds a plugin from YAML configuration text, validating it as `daq` would, and starts it.
    /// - Throws: the decoding error or ``ConfigIssue`` validation raises.
    public convenience init<T: TransformPlugin>(_ type: T.Type, config yaml: String = "{}", name: String = "under-test")
        throws
    {
        let configuration = try PluginConfigLoader.decode(T.Configuration.self, yaml: yaml)
        let context = PluginContext(componentName: name, pipelineName: "test", baseDirectory: "", clock: .virtual)
        try self.init(T(configuration: configuration, context: context), name: name)
    }

    /// Processes samples as one batch and returns the output (plus anything emitted from timers).
    public func push(_ samples: [Sample]) throws -> [Sample] {
        try push(Batch(stream: "input", samples: samples)).samples
    }

    /// Processes one batch and returns the output batch.
    public func push(_ batch: Batch) throws -> Batch {
        var b = batch
        try context.onStageQueue { try transform.process(&b, context: context) }
        for extra in emitted.take() { b.append(contentsOf: extra) }
        return b
    }

    /// Ends the input and returns what the transform still held; the transform's timers and
    /// watches end with it, as they do when a stage ends in a pipeline.
    public func finish() throws -> [Sample] {
        defer { context.endTasks() }
        let rest = try context.onStageQueue { try transform.finish(context: context) }.samples
        try context.awaitEnd()
        return rest
    }

    /// Events the transform reported.
    public var events: [PipelineEvent] { eventLog.all }
}

/// Decodes a plugin configuration from YAML text the way the pipeline loader does.
public enum PluginConfigLoader {
    /// Decodes and validates.
    public static func decode<C: PluginConfiguration>(_ type: C.Type, yaml: String) throws -> C {
        let node = try Yams.compose(yaml: yaml) ?? Node([(Node, Node)]())
        let config = try YAMLDecoder().decode(C.self, from: node)
        try config.validate()
        return config
    }
}
