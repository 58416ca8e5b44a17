import DAQCore
import Foundation
import Synchronization

/// Builds the pipelines the checks run around the plugin under test, and runs them with
/// deadlines so that a hung plugin fails its check instead of hanging the test suite.
///
/// A source under test feeds `conformance.count` sinks; a transform or sink under test is fed
/// by `conformance.feed` sources. With `copies > 1` each copy has its own feed and sink, and a
/// gated heartbeat branch (`hb` → `hbout`) runs beside them.
struct ConformanceRunner {
    let plugin: PluginDescriptor
    let spec: ConformanceSpec

    /// One pipeline's shape.
    struct Layout {
        var config: String
        var feeds: [FeedPlan] = []
        var copies = 1
        var heartbeat: FeedPlan?
        /// The subject's input buffer, small to make backpressure come early.
        var buffer: Int?
        var options = RunOptions(flushInterval: 0)
    }

    static func subject(_ i: Int, of copies: Int) -> String { copies == 1 ? "subject" : "subject\(i)" }

    var kind: PluginKind { plugin.kind }

    /// The section where the subject's component sits, as errors name it (`transforms.subject`).
    static func qualified(_ kind: PluginKind, _ name: String) -> String { "\(kind.section).\(name)" }

    private static let runs = Atomic<Int>(0)

    func yaml(_ layout: Layout, tokens: [String], heartbeat: String?) -> String {
        let n = Self.runs.wrappingAdd(1, ordering: .relaxed).newValue
        var sources: [String] = []
        var transforms: [String] = []
        var sinks: [String] = []
        let body = layout.config.split(separator: "\n", omittingEmptySubsequences: true).map { "    " + $0 }
        for i in 0..<layout.copies {
            let name = Self.subject(i, of: layout.copies)
            var lines = ["  \(name):", "    type: \(plugin.typeName)"]
            if kind != .source { lines.append("    inputs: [feed\(i)]") }
            if let size = layout.buffer, kind != .source { lines.append("    buffer: {size: \(size)}") }
            lines += body
            switch kind {
            case .source:
                sources += lines
                sinks.append("  out\(i): {type: conformance.count, inputs: [\(name)]}")
            case .transform:
                sources.append("  feed\(i): {type: conformance.feed, token: \(tokens[i])}")
                transforms += lines
                sinks.append("  out\(i): {type: conformance.count, inputs: [\(name)]}")
            case .sink:
                sources.append("  feed\(i): {type: conformance.feed, token: \(tokens[i])}")
                sinks += lines
            }
        }
        if let heartbeat {
            sources.append("  hb: {type: conformance.feed, token: \(heartbeat)}")
            sinks.append("  hbout: {type: conformance.count, inputs: [hb]}")
        }
        var text = "name: conformance-\(n)\nclock: \(spec.clock.rawValue)\nsources:\n" + sources.joined(separator: "\n")
        if !transforms.isEmpty { text += "\ntransforms:\n" + transforms.joined(separator: "\n") }
        if !sinks.isEmpty { text += "\nsinks:\n" + sinks.joined(separator: "\n") }
        return text + "\n"
    }

    /// Validates and builds the pipeline, and starts it.
    /// - Throws: ``ConfigError``, or ``PipelineStartError`` when a stage cannot start.
    func start(_ layout: Layout) throws -> Execution {
        let tokens = layout.feeds.map(FeedPlan.register)
        let hb = layout.heartbeat.map(FeedPlan.register)
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("daq-conformance-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let execution = Execution(
            directory: directory, tokens: tokens + (hb.map { [$0] } ?? []), plans: layout.feeds,
            heartbeat: layout.heartbeat)
        do {
            let registry = try PluginRegistry([plugin, .source(FeedSource.self), .sink(CountSink.self)])
            var environment = ProcessInfo.processInfo.environment
            environment["CONFORMANCE_DIR"] = directory
            let text = yaml(layout, tokens: tokens, heartbeat: hb)
            let pipeline = try PipelineLoader(registry: registry, environment: environment)
                .load(text: text, file: "conformance.yaml")
            let run = try PipelineRun(spec: pipeline, options: layout.options, observers: [execution.log])
            execution.run = run
            try run.start()
        } catch {
            execution.cleanUp()
            throw error
        }
        return execution
    }

    /// A started run and what it reported.
    final class Execution: @unchecked Sendable {
        // @unchecked: `run` is set once, before the execution is shared.
        var run: PipelineRun!
        let log = EventLog()
        let directory: String
        private let tokens: [String]
        private let plans: [FeedPlan]
        /// The heartbeat feed, when the layout has one.
        let heartbeat: FeedPlan?

        init(directory: String, tokens: [String], plans: [FeedPlan], heartbeat: FeedPlan?) {
            self.directory = directory
            self.tokens = tokens
            self.plans = plans
            self.heartbeat = heartbeat
        }

        /// The feed of copy `i`.
        func plan(_ i: Int) -> FeedPlan? { i < plans.count ? plans[i] : nil }

        /// Waits for the run's final state; `nil` when it has not ended within `timeout`
        /// seconds, after which it is cancelled (and given as long again to end).
        func end(timeout: Double) -> RunResult? {
            let ended = log.wait(timeout: timeout) { $0.contains { $0.state(of: nil)?.isFinal == true } }
            if ended { return run.wait() }
            run.cancel()
            if log.wait(timeout: timeout, until: { $0.contains { $0.state(of: nil)?.isFinal == true } }) {
                _ = run.wait()
            }
            return nil
        }

        /// The counters of component `name`.
        func stats(_ name: String) -> StageStatistics? { run.statistics.first { $0.name == name } }

        /// What the count sink `name` received.
        func counts(_ name: String) -> CountSink.Counts {
            (run.plugin(named: name) as? CountSink)?.snapshot ?? CountSink.Counts()
        }

        func outcome(_ result: RunResult, subject: String = "subject", fed: Int, sink: String = "out0")
            -> ConformanceOutcome
        {
            let counts = counts(sink)
            return ConformanceOutcome(
                result: result, subject: stats(subject) ?? StageStatistics(name: subject, kind: .source, type: "?"),
                fed: fed, received: counts.data, firstReceived: counts.first, events: log.all, directory: directory)
        }

        func cleanUp() {
            for t in tokens { FeedPlan.unregister(t) }
            try? FileManager.default.removeItem(atPath: directory)
        }
    }
}
