import DAQCore
import Synchronization

/// Runs a whole pipeline in-process from YAML text and collects what reached its `collect`
/// sinks, with every event, on the virtual clock unless the YAML says otherwise.
public enum PipelineHarness {
    /// What a harness run produced.
    public struct Outcome: Sendable {
        /// How the run ended.
        public var result: RunResult
        /// Samples written to each `collect` sink, markers included, by component name.
        public var collected: [String: [Sample]]
        /// Every event, in the order observers saw them.
        public var events: [PipelineEvent]
        /// The validated pipeline.
        public var spec: PipelineSpec

        /// The data samples (no markers) a sink received.
        public func data(_ sink: String) -> [Sample] { (collected[sink] ?? []).filter { $0.kind != .marker } }
    }

    /// Validates and runs `yaml`; `collect` is always available as a sink type.
    /// - Throws: ``ConfigError`` for an invalid pipeline, ``PipelineStartError`` when it cannot start.
    public static func run(
        yaml: String, plugins: [PluginDescriptor], environment: [String: String] = [:], overrides: [String] = [],
        options: RunOptions = RunOptions(flushInterval: 0), file: String = "test.yaml",
        control: (@Sendable (PipelineRun) -> Void)? = nil
    ) throws -> Outcome {
        let registry = try PluginRegistry(plugins + [.collect])
        let spec = try PipelineLoader(registry: registry, environment: environment, overrides: overrides)
            .load(text: yaml, file: file)
        let events = Collector<PipelineEvent>()
        let run = try PipelineRun(spec: spec, options: options, observers: [ClosureObserver { events.append($0) }])
        try run.start()
        control?(run)
        let result = run.wait()
        var collected: [String: [Sample]] = [:]
        for c in spec.components where c.kind == .sink {
            if let sink = run.plugin(named: c.name) as? CollectSink { collected[c.name] = sink.samples }
        }
        return Outcome(result: result, collected: collected, events: events.all, spec: spec)
    }
}
