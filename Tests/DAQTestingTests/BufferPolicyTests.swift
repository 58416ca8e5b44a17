import DAQCore
import DAQStandard
import DAQTesting
import Dispatch
import Testing

@Suite("Edge buffers", .timeLimit(.minutes(20)))
struct BufferPolicyTests {
    static func pipeline(name: String, policy: String, count: Int = 100_000) -> String {
        """
        name: \(name)
        clock: virtual
        sources:
          gen: {type: generator, signal: counter, rate: 1000, count: \(count)}
        sinks:
          slow:
            type: gated
            inputs: [gen]
            buffer: {size: 1000, when_full: \(policy)}
        """
    }

    /// Runs with the sink's gate closed until `openWhen` is seen, then checks the counters.
    func run(policy: String, openWhen: @escaping @Sendable (PipelineEvent) -> Bool) throws -> (
        result: RunResult, received: [Sample], emittedWhileBlocked: Int
    ) {
        let name = "buffer-\(policy)"
        let gate = DispatchSemaphore(value: 0)
        GatedSink.gates.withLock { $0[name] = gate }
        let registry = try PluginRegistry(StandardPlugins.all + [.sink(GatedSink.self)])
        let spec = try PipelineLoader(registry: registry, environment: [:]).load(
            text: Self.pipeline(name: name, policy: policy), file: "t.yaml")
        let waiter = EventWaiter(openWhen)
        let run = try PipelineRun(
            spec: spec, options: RunOptions(batchSize: 256, flushInterval: 0), observers: [waiter])
        try run.start()
        #expect(waiter.wait(), "the awaited event never came")
        let emitted = run.statistics.first { $0.name == "gen" }!.samplesOut
        gate.signal()
        let result = run.wait()
        let sink = run.plugin(named: "slow") as! GatedSink
        return (result, sink.received.withLock { $0 }, emitted)
    }

    @Test func blockSlowsTheSource() throws {
        let (result, received, emitted) = try run(policy: "block") {
            if case .backpressure("gen") = $0 { return true } else { return false }
        }
        // Blocked: no more than the buffer, the batch being written, and one batch in flight.
        #expect(emitted <= 1000 + 3 * 256)
        #expect(result.state == .finished)
        #expect(received.count == 100_000)
        #expect(result.stages.first { $0.name == "slow" }!.dropped == 0)
        #expect(received.map { $0["seq"]!.intValue! } == Array(0..<100_000))
    }

    @Test(arguments: ["drop_newest", "drop_oldest"])
    func dropPoliciesDropAndCount(policy: String) throws {
        let (result, received, emitted) = try run(policy: policy) {
            if case .state(component: "gen", from: _, to: .finished) = $0 { return true } else { return false }
        }
        #expect(emitted == 100_000, "a drop policy never makes the source wait")
        let dropped = result.stages.first { $0.name == "slow" }!.dropped
        #expect(dropped > 0)
        #expect(received.count + dropped == 100_000)
        let seqs = received.map { $0["seq"]!.intValue! }
        if policy == "drop_newest" {
            #expect(seqs.first == 0)
            #expect(seqs.last! < 100_000 - 1)
        } else {
            #expect(seqs.last.map { Int($0) } == 99_999)
        }
        #expect(seqs == seqs.sorted())
    }
}
