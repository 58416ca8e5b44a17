import DAQCore
import DAQTesting
import Foundation
import Synchronization
import Testing

/// `type: numbers` — `count` samples with `v` = 1, 2, …, and a count of its starts by `label`.
private final class NumbersSource: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting("samples") var count = 10
        @Setting("name its starts are counted under") var label = ""
        @Setting("fail after this many samples; 0 never") var failAfter = 0
    }
    static let typeName = "numbers"
    static let summary = "test source"
    static let starts = Mutex<[String: Int]>([:])
    private let config: Configuration
    private var next = 1
    init(configuration: Configuration, context: PluginContext) throws { config = configuration }
    func start(context: StageContext) throws { Self.starts.withLock { $0[config.label, default: 0] += 1 } }
    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        while next <= config.count && batch.count < limit {
            if config.failAfter > 0 && next > config.failAfter { throw DAQError(.badInput, "broken at \(next)") }
            batch.append(Sample(timestamp: Double(next), uptime: Double(next), fields: ["v": .double(Double(next))]))
            next += 1
        }
        return next > config.count ? .finished : .more
    }
}

/// `type: plus_sum` — adds to every `v` the sum of all `v` of its input: it must see the whole
/// input first.
private final class PlusSumTransform: TransformPlugin, TwoPassTransform {
    struct Configuration: PluginConfiguration {
        @Setting("when set, the sum goes into the manifest of a run directory under it") var directory = ""
    }
    static let typeName = "plus_sum"
    static let summary = "test two-pass transform"
    private enum State {
        case waiting
        case summing(Double)
        case adding(Double)
    }
    private var state = State.waiting
    private let directory: String
    init(configuration: Configuration, context: PluginContext) throws { directory = configuration.directory }
    func start(context: StageContext) throws {
        guard case .adding(let s) = state, !directory.isEmpty else { return }
        _ = try context.runDirectory(under: directory)
        context.recordResult(["sum": .double(s)])
    }
    var needsFirstPass: Bool {
        if case .waiting = state { return true }
        return false
    }
    func beginFirstPass() { state = .summing(0) }
    func firstPassResult() throws -> Fields {
        guard case .summing(let s) = state else { throw DAQError(.pluginFailed, "no sum") }
        return ["sum": .double(s)]
    }
    func takeFirstPass(_ result: Fields) throws { state = .adding(result["sum"]?.doubleValue ?? .nan) }
    func process(_ batch: inout Batch, context: StageContext) throws {
        let v = batch.column("v")?.doubles ?? []
        switch state {
        case .summing(let s):
            state = .summing(s + v.reduce(0, +))
            batch = Batch(stream: context.name)
        case .adding(let s):
            batch.setColumn(Column(name: "v", doubles: v.map { $0 + s }))
        case .waiting:
            throw DAQError(.pluginFailed, "no first pass")
        }
    }
}

/// The engine's first pass for a ``TwoPassTransform``: on the virtual clock the part of the
/// pipeline upstream of it runs once before the run, and nothing else does.
@Suite(.timeLimit(.minutes(20))) struct FirstPassTests {
    static func run(_ yaml: String) throws -> PipelineHarness.Outcome {
        try PipelineHarness.run(
            yaml: yaml, plugins: [.source(NumbersSource.self), .transform(PlusSumTransform.self)])
    }

    @Test func theTransformSeesItsWholeInputBeforeTheRunAndOnlyItsUpstreamRunsTwice() throws {
        let label = UUID().uuidString
        let outcome = try Self.run(
            """
            name: two
            clock: virtual
            sources:
              a: {type: numbers, count: 100, label: "\(label)-a"}
              b: {type: numbers, count: 5, label: "\(label)-b"}
            transforms:
              add: {type: plus_sum, inputs: [a]}
            sinks:
              out: {type: collect, inputs: [add]}
              side: {type: collect, inputs: [b]}
            """)
        #expect(outcome.result.state == .finished)
        // 1 + … + 100 = 5050, added to each of the 100 samples, which reach the sink once.
        let expected: [Double] = (1...100).map { Double($0) + 5050 }
        #expect(outcome.data("out").map { $0.number("v") } == expected)
        #expect(outcome.data("side").count == 5)
        let starts = NumbersSource.starts.withLock { ($0["\(label)-a"], $0["\(label)-b"]) }
        #expect(starts.0 == 2 && starts.1 == 1, "a is read in the first pass and the run; b only in the run")
    }

    @Test func aTransformsResultGoesIntoTheManifest() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("daq-firstpass-\(UUID().uuidString)")
            .path
        _ = try Self.run(
            """
            name: summed
            clock: virtual
            sources:
              a: {type: numbers, count: 100}
            transforms:
              add: {type: plus_sum, inputs: [a], directory: "\(base)"}
            sinks:
              out: {type: collect, inputs: [add]}
            """)
        let dir = try #require(try FileManager.default.contentsOfDirectory(atPath: base).first)
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(base)/\(dir)/manifest.json"))
        guard case .object(let manifest) = try JSONParser.parse([UInt8](data)),
            case .object(let results)? = manifest["results"], case .object(let add)? = results["add"]
        else {
            Issue.record("no results.add in the manifest")
            return
        }
        #expect(add["sum"]?.doubleValue == 5050)
    }

    @Test func aChainedTransformsFirstPassSeesTheEarlierOnesOutput() throws {
        let outcome = try Self.run(
            """
            name: chain
            clock: virtual
            sources:
              a: {type: numbers, count: 10}
            transforms:
              one: {type: plus_sum, inputs: [a]}
              two: {type: plus_sum, inputs: [one]}
            sinks:
              out: {type: collect, inputs: [two]}
            """)
        // one adds 55; two's input sums to 55 + 10 × 55 = 605.
        let expected: [Double] = (1...10).map { Double($0) + 660 }
        #expect(outcome.data("out").map { $0.number("v") } == expected)
    }

    /// A cancel (`daq run`'s signal) while the first pass reads: the pass stops, `start()` throws
    /// `cancelled`, and the run ends cancelled with no stage of its own started.
    @Test func aCancelDuringTheFirstPassEndsTheRunCancelledBeforeItBegins() throws {
        let registry = try PluginRegistry([.source(NumbersSource.self), .transform(PlusSumTransform.self), .collect])
        let spec = try PipelineLoader(registry: registry, environment: [:], overrides: []).load(
            text: """
                name: long
                clock: virtual
                sources:
                  a: {type: numbers, count: 20000000}
                transforms:
                  add: {type: plus_sum, inputs: [a]}
                sinks:
                  out: {type: collect, inputs: [add]}
                """, file: "long.yaml")
        let reading = DispatchSemaphore(value: 0)
        let run = try PipelineRun(
            spec: spec, options: RunOptions(flushInterval: 0),
            observers: [
                ClosureObserver { event in
                    if case .notice(_, let message) = event, message.hasPrefix("first pass: reading") {
                        reading.signal()
                    }
                }
            ])
        DispatchQueue.global().async {
            reading.wait()
            run.cancel()
        }
        do {
            try run.start()
            Issue.record("the run started after its first pass was cancelled")
        } catch {
            #expect(DAQError(error, component: nil, code: .startFailed).code == .cancelled, "\(error)")
            #expect("\(error)".contains("transforms.add") && "\(error)".contains("first pass"), "\(error)")
        }
        let result = run.wait()
        #expect(result.state == .cancelled)
        #expect((run.plugin(named: "out") as? CollectSink)?.samples.isEmpty == true)
    }

    @Test func aFailingFirstPassFailsTheStartNamingTheTransform() throws {
        do {
            _ = try Self.run(
                """
                name: broken
                clock: virtual
                sources:
                  a: {type: numbers, count: 10, fail_after: 4}
                transforms:
                  add: {type: plus_sum, inputs: [a]}
                sinks:
                  out: {type: collect, inputs: [add]}
                """)
            Issue.record("the run started")
        } catch {
            #expect(
                "\(error)".contains("transforms.add") && "\(error)".contains("first pass")
                    && "\(error)".contains("broken at 5"), "\(error)")
        }
    }
}

extension Sample {
    fileprivate func number(_ name: String) -> Double { self[name]?.doubleValue ?? .nan }
}
