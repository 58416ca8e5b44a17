import Yams

/// How the run clock advances.
public enum ClockMode: String, Sendable, Hashable, CaseIterable, ConfigEnum {
    /// Wall time: live sources stamp samples as they arrive.
    case realtime
    /// Recorded time, paced by `speed` (1 = as recorded).
    case replay
    /// As fast as the data allow; timers fire by data time.
    case virtual
}

/// What an edge buffer does when it is full.
public enum WhenFull: String, Sendable, Hashable, CaseIterable, ConfigEnum {
    /// The producer waits: backpressure reaches the source.
    case block
    /// The oldest buffered samples are dropped and counted.
    case dropOldest = "drop_oldest"
    /// The incoming samples are dropped and counted.
    case dropNewest = "drop_newest"
}

/// The input buffer of a transform or sink.
public struct BufferSpec: Sendable, Hashable, Decodable {
    /// Capacity in samples.
    public var size: Int
    /// The policy when full.
    public var whenFull: WhenFull

    /// The default: 16,384 samples, `block`.
    public static let `default` = BufferSpec(size: 16_384, whenFull: .block)

    /// Creates a buffer specification.
    public init(size: Int, whenFull: WhenFull) {
        self.size = size
        self.whenFull = whenFull
    }

    enum CodingKeys: String, CodingKey {
        case size
        case whenFull = "when_full"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        size = try c.decodeIfPresent(Int.self, forKey: .size) ?? Self.default.size
        whenFull = try c.decodeIfPresent(WhenFull.self, forKey: .whenFull) ?? Self.default.whenFull
    }
}

/// One entry of the `steps` schedule.
public struct StepSpec: Sendable, Hashable {
    /// The step path that becomes current, `/`-separated.
    public var path: String
    /// Run-clock seconds at which it becomes current.
    public var at: Double

    /// Creates a step.
    public init(path: String, at: Double) {
        self.path = path
        self.at = at
    }
}

/// The `metrics` section: `metrics: {prometheus: {listen: 127.0.0.1:9598}}`.
public struct MetricsSpec: Sendable, Hashable {
    /// The address of the Prometheus endpoint (`GET /metrics`); port 0 takes a free one.
    public var prometheusHost: String
    public var prometheusPort: Int
}

/// What a component does with samples it cannot process (`on_error`).
public enum ErrorPolicy: String, Sendable, Hashable, CaseIterable, ConfigEnum {
    /// The component fails and the run stops: nothing goes on silently.
    case stop
    /// The samples are dropped, each time reported as a warning and counted as an error.
    case skip
    /// The samples go, with the error and the component's name, to `<component>.dead`, an
    /// output any sink or transform may name in `inputs`.
    case deadLetter = "dead_letter"
}

/// What a live source does with what it delivers while the run is paused (`pause`).
public enum PauseHandling: String, Sendable, Hashable, CaseIterable, ConfigEnum {
    /// Read and dropped, and counted: the output shows nothing of the pause but its markers.
    case drop
    /// Kept, up to the input buffer of the components it feeds, and delivered in order after
    /// the resume; what does not fit is dropped and counted, with one warning.
    case buffer
}

/// One validated component.
public struct ComponentSpec: Sendable {
    /// Its name in the pipeline.
    public var name: String
    /// Source, transform or sink.
    public var kind: PluginKind
    /// The plugin type.
    public var plugin: PluginDescriptor
    /// The components it reads, in the order given.
    public var inputs: [String]
    /// Its input buffer.
    public var buffer: BufferSpec
    /// The decoded configuration.
    public var configuration: any PluginConfiguration
    /// What it does with samples it cannot process.
    public var onError: ErrorPolicy = .stop
    /// Sources: what it does with what it delivers while the run is paused.
    public var pause: PauseHandling = .drop
    /// The component's YAML as loaded (after `${VAR}` and `--set`) without `inputs`,
    /// re-serialized: equal fingerprints mean unchanged settings when a running pipeline is reloaded.
    public var fingerprint = ""

    /// The suffix that names a component's dead-letter output in `inputs`.
    public static let deadLetterSuffix = ".dead"

    /// The keys every component of `kind` takes besides `type` and its plugin's own: what
    /// validation accepts, `daq plugins describe` prints and `daq schema` checks.
    public static func commonKeys(_ kind: PluginKind) -> [ConfigKey] {
        let onError = ConfigKey(
            "on_error", ErrorPolicy.choices, default: "stop",
            "Samples it cannot process: stop the run, skip them (reported), or send them to <name>.dead.")
        guard kind != .source else {
            let pause = ConfigKey(
                "pause", PauseHandling.choices, default: "drop",
                "A live source (realtime clock) while the run is paused: drop what it delivers (counted), "
                    + "or buffer it (up to the input buffer of what it feeds) and deliver it after the resume.")
            return [onError, pause]
        }
        return [
            .required("inputs", "[string]", "Components this one reads; <name>.dead reads a component's dead letters."),
            ConfigKey(
                "buffer", "{size: int, when_full: \(WhenFull.choices)}", default: "{size: 16384, when_full: block}",
                "Input buffer: samples, and what happens when it is full."),
            onError,
        ]
    }
}

extension PipelineSpec {
    /// The keys of a pipeline file's top level, each declared once: what the loader accepts,
    /// what `daq schema` documents (the components' own are ``ComponentSpec/commonKeys(_:)``).
    public static let topLevelKeys: [ConfigKey] =
        [
            ConfigKey("name", "string", "The pipeline's name; run directories are named after it."),
            ConfigKey(
                "clock", ClockMode.allCases.map(\.rawValue).joined(separator: " | "), default: "realtime",
                "realtime: wall time; replay: recorded time paced by speed; virtual: as fast as possible."),
            ConfigKey(
                "speed", "double", default: "1", "Replay pace; 1 is recorded speed. Ignored by realtime and virtual."),
            ConfigKey(
                "steps", "[{path: string, at: seconds}]",
                "Step schedule; each step change reaches every sink as a marker."),
            ConfigKey("metrics", "{prometheus: {listen: string}}", "Where the run serves its metrics."),
        ]
        + PluginKind.allCases.map {
            ConfigKey($0.section, "{string: component}", "The \($0.rawValue) components, by name.")
        }

    /// The doc of top-level key `name`.
    public static func topLevelDoc(_ name: String) -> String {
        topLevelKeys.first { $0.name == name }?.doc ?? ""
    }
}

/// A validated pipeline, ready to run.
public struct PipelineSpec: Sendable {
    /// The pipeline's name.
    public var name: String
    /// The clock mode.
    public var clock: ClockMode
    /// The replay pace.
    public var speed: Double
    /// The step schedule, times increasing.
    public var steps: [StepSpec]
    /// Every component, sources first, then transforms, then sinks, each in file order.
    public var components: [ComponentSpec]
    /// The file it came from.
    public var file: String
    /// SHA-256 of the effective configuration text, hex; empty when the loader had no
    /// ``ContentHash``.
    public var configHash: String
    /// Warnings found while validating.
    public var warnings: [Diagnostic]
    /// Where the run serves its metrics; `nil` when the file has no `metrics` section.
    public var metrics: MetricsSpec? = nil

    /// The component named `name`.
    public func component(_ name: String) -> ComponentSpec? {
        components.first { $0.name == name }
    }
}
