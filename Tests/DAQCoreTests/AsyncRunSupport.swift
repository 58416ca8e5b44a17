import DAQCore
import DAQTesting
import Logging

/// `type: batches` — emits `count` batches of `size` samples, one batch a read, then finishes;
/// with `idle: true` it waits for a stop instead, and with `fail: N` its N-th read throws.
final class BatchesSource: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting("Batches to emit.") var count = 3
        @Setting("Samples a batch.") var size = 5
        @Setting("Wait for a stop instead of finishing.") var idle = false
        @Setting("The read that throws, from 1; 0 for none.") var fail = 0
    }
    static let typeName = "batches"
    static let summary = "test source"

    private let configuration: Configuration
    private var reads = 0

    init(configuration: Configuration, context: PluginContext) throws { self.configuration = configuration }

    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        guard reads < configuration.count else { return configuration.idle ? .idle : .finished }
        reads += 1
        if reads == configuration.fail { throw DAQError(.badInput, "read \(reads) went wrong") }
        let column = batch.ensureColumn("seq")
        for i in 0..<configuration.size {
            let n = (reads - 1) * configuration.size + i
            batch.appendRow(uptime: Double(n) / 100, timestamp: Double(n) / 100)
            batch.append(double: Double(n), toColumn: column)
        }
        return .more
    }
}

/// Pipelines of a `batches` source and a `collect` sink, on the virtual clock.
enum AsyncRun {
    static func make(_ source: String, name: String = "async") throws -> PipelineRun {
        let registry = try PluginRegistry([.source(BatchesSource.self), .collect])
        let yaml = """
            name: \(name)
            clock: virtual
            sources:
              src: {type: batches, \(source)}
            sinks:
              out: {type: collect, inputs: [src]}
            """
        let spec = try PipelineLoader(registry: registry).load(text: yaml, file: "async.yaml")
        return try PipelineRun(spec: spec, options: RunOptions(flushInterval: 0))
    }

    /// The data samples the `collect` sink `out` received.
    static func collected(_ run: PipelineRun) -> [Sample] {
        ((run.plugin(named: "out") as? CollectSink)?.samples ?? []).filter { $0.kind == .data }
    }

    /// Returns once `events` has shown the pipeline running.
    static func untilRunning(_ events: PipelineEventStream) async {
        for await event in events {
            if case .state(nil, _, .running) = event { return }
        }
    }

    static let quietLogger = Logger(label: "daq.tests") { _ in SwiftLogNoOpLogHandler() }
}
