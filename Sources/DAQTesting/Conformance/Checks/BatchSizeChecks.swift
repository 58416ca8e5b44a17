import DAQCore
import Foundation
import Yams

/// Handles empty and huge batches.
extension ConformanceSuite {
    /// Hands an empty batch straight to `process` or `write`: the engine never sends one, but a
    /// plugin filtering or slicing batches makes them, and an embedding application may too.
    func emptyBatch() throws -> ConformanceResult.Verdict {
        guard kind != .source else {
            return .skipped("a source makes its batches; one that yields nothing is checked by 'stops with no input'")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "daq-conformance-\(UUID().uuidString)"
        ).path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = spec.config.replacingOccurrences(of: "${CONFORMANCE_DIR}", with: directory)
        let node = try Yams.compose(yaml: text) ?? Node([(Node, Node)]())
        let configuration = try runner.plugin.decodeConfiguration(node)
        let context = PluginContext(
            componentName: "subject", pipelineName: "conformance", baseDirectory: "", clock: .virtual)
        switch try runner.plugin.makeStage(configuration, context: context) {
        case .transform(let transform):
            let harness = try TransformHarness(transform, name: "subject")
            let out = try harness.push(Batch())
            // Nothing is pending for an empty batch, so input can end at once.
            (transform as? any DeferredWork)?.inputEnded()
            _ = try harness.finish()
            let failures = harness.events.filter { if case .failed = $0 { return true } else { return false } }
            var problems: [String] = []
            if !out.isEmpty { problems.append("an empty batch came out as \(out.count) samples") }
            if !failures.isEmpty { problems.append("reported \(failures)") }
            return Self.verdict(problems)
        case .sink(let sink):
            let harness = try SinkHarness(sink, name: "subject")
            try harness.write(Batch())
            (sink as? any DeferredWork)?.inputEnded()
            try harness.finish()
            let failures = harness.events.filter {
                switch $0 {
                case .failed, .sinkFailed: return true
                default: return false
                }
            }
            return Self.verdict(failures.isEmpty ? [] : ["reported \(failures)"])
        case .source:
            return .skipped("not a transform or sink")
        }
    }

    /// One batch of ``ConformanceSpec/hugeCount`` samples, as the engine hands it over when a
    /// source reads that many at once: it must go through whole and the run end cleanly.
    func hugeBatch() throws -> ConformanceResult.Verdict {
        guard let count = spec.hugeCount else { return .skipped("no huge count was given (ConformanceSpec.hugeCount)") }
        if kind == .source && spec.hugeConfig == nil {
            return .skipped("no configuration yielding \(count) samples was given (ConformanceSpec.hugeConfig)")
        }
        var layout = ConformanceRunner.Layout(config: spec.hugeConfig ?? spec.config)
        layout.options = RunOptions(batchSize: count, flushInterval: 0)
        if kind != .source { layout.feeds = [FeedPlan(batch: Self.tiled(spec.input, count), end: .finish)] }
        let execution = try runner.start(layout)
        defer { execution.cleanUp() }
        guard let result = execution.end(timeout: spec.deadline) else {
            return .failed("a batch of \(count) samples did not get through within \(Int(spec.deadline)) s (hung)")
        }
        var problems = Self.lifecycleProblems(execution, result, deadline: spec.deadline)
        let subject = execution.stats("subject")
        let received = execution.counts("out0").data
        if kind == .source {
            if received != count { problems.append("\(received) of \(count) samples reached the sink") }
        } else {
            if subject?.samplesIn != count { problems.append("took \(subject?.samplesIn ?? 0) of \(count) samples") }
            problems += outputProblems(fed: count, received: received, subject: subject)
            if let check = spec.checkOutput, let problem = check(execution.outcome(result, fed: count)) {
                problems.append(problem)
            }
        }
        return Self.verdict(problems)
    }

    /// `count` samples made by repeating the spec's input, with run-clock times that keep
    /// rising, so a huge batch costs the memory of a batch, not of a million `Sample`s.
    static func tiled(_ input: (Int) -> [Sample], _ count: Int) -> Batch {
        let pattern = Batch(stream: "feed", samples: input(min(count, 10_000)))
        guard !pattern.isEmpty else { return pattern }
        var batch = pattern
        while batch.count < count {
            batch.append(contentsOf: pattern.slice(0..<min(pattern.count, count - batch.count)))
        }
        let step =
            pattern.count > 1
            ? (pattern.uptimes[pattern.count - 1] - pattern.uptimes[0]) / Double(pattern.count - 1) : 0.01
        let origin = pattern.uptimes[0]
        for i in 0..<batch.count { batch.setUptime(origin + Double(i) * (step > 0 ? step : 0.01), at: i) }
        return batch
    }
}
