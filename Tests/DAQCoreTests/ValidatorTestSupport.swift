import DAQCore
import DAQTesting
import Foundation
import Testing

// Small plugins registered by the validator tests, so they depend on DAQCore alone.

/// `type: ticker` — a source with a required `rate` (must be > 0) and an enum `shape`.
final class TickerSource: SourcePlugin {
    enum Shape: String, ConfigEnum, Sendable { case sine, square }
    struct Configuration: PluginConfiguration {
        @Setting(required: "Hz") var rate: Double
        @Setting("waveform") var shape = Shape.sine
        func validate() throws {
            if !(rate > 0) { throw $rate.issue("must be greater than 0 Hz, found \(rate)") }
        }
    }
    static let typeName = "ticker"
    static let summary = "test source"
    init(configuration: Configuration, context: PluginContext) throws {}
    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus { .finished }
}

/// `type: window` — a transform with a required integer `size` that validate() rejects when 0.
final class WindowTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {
        @Setting(required: "samples") var size: Int
        @Setting("label") var label: String?
        func validate() throws {
            if size == 0 { throw $size.issue("must be at least 1 sample, found 0") }
        }
    }
    static let typeName = "window"
    static let summary = "test transform"
    init(configuration: Configuration, context: PluginContext) throws {}
    func process(_ batch: inout Batch, context: StageContext) throws {}
}

/// `type: passthrough` — a transform without configuration.
final class PassthroughTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "passthrough"
    static let summary = "test transform"
    init(configuration: Configuration, context: PluginContext) throws {}
    func process(_ batch: inout Batch, context: StageContext) throws {}
}

/// `type: printer` — a sink with an optional `path`.
final class PrinterSink: SinkPlugin {
    struct Configuration: PluginConfiguration { @Setting("where") var path: String? }
    static let typeName = "printer"
    static let summary = "test sink"
    init(configuration: Configuration, context: PluginContext) throws {}
    func write(_ batch: Batch, context: StageContext) throws {}
}

enum V {
    static func registry() throws -> PluginRegistry {
        try PluginRegistry([
            .source(TickerSource.self), .transform(WindowTransform.self), .transform(PassthroughTransform.self),
            .sink(PrinterSink.self), .collect,
        ])
    }

    static func loader(environment: [String: String] = [:], overrides: [String] = []) throws -> PipelineLoader {
        PipelineLoader(registry: try registry(), environment: environment, overrides: overrides)
    }

    /// Every diagnostic (warnings included) of YAML that must fail to load; records an issue when it loads.
    static func diagnostics(
        _ yaml: String, environment: [String: String] = [:], overrides: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Diagnostic] {
        let loader = try loader(environment: environment, overrides: overrides)
        do {
            let spec = try loader.load(text: yaml, file: "p.yaml")
            Issue.record("expected the pipeline to fail; it loaded '\(spec.name)'", sourceLocation: sourceLocation)
            return []
        } catch {
            return error.diagnostics
        }
    }

    /// The errors (not warnings) of YAML that must fail to load.
    static func errors(
        _ yaml: String, environment: [String: String] = [:], overrides: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> [Diagnostic] {
        try diagnostics(yaml, environment: environment, overrides: overrides, sourceLocation: sourceLocation)
            .filter { $0.severity == .error }
    }

    /// The only diagnostic of YAML that must fail with exactly one.
    static func single(
        _ yaml: String, environment: [String: String] = [:], overrides: [String] = [],
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Diagnostic {
        let all = try errors(yaml, environment: environment, overrides: overrides, sourceLocation: sourceLocation)
        try #require(all.count == 1, "diagnostics: \(all.map(\.description))", sourceLocation: sourceLocation)
        return all[0]
    }

    /// Loads YAML that must be valid.
    static func load(
        _ yaml: String, environment: [String: String] = [:], overrides: [String] = []
    ) throws -> PipelineSpec {
        try loader(environment: environment, overrides: overrides).load(text: yaml, file: "p.yaml")
    }

    /// A minimal valid pipeline of 8 lines; tests append top-level lines from line 9.
    static let minimal = """
        sources:
          src:
            type: ticker
            rate: 10
        sinks:
          out:
            type: printer
            inputs: src

        """
}

/// Expects `d` to be an error at `line`:`column` with `path` and a message containing every fragment.
func expectDiagnostic(
    _ d: Diagnostic, line: Int?, column: Int?, path: String, _ fragments: String...,
    severity: Diagnostic.Severity = .error, sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(d.line == line, "\(d)", sourceLocation: sourceLocation)
    #expect(d.column == column, "\(d)", sourceLocation: sourceLocation)
    #expect(d.path == path, "\(d)", sourceLocation: sourceLocation)
    #expect(d.severity == severity, "\(d)", sourceLocation: sourceLocation)
    for f in fragments {
        #expect(d.message.contains(f), "'\(d.message)' lacks '\(f)'", sourceLocation: sourceLocation)
    }
}
