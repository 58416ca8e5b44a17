import DAQCore
import DAQStandard
import DAQTesting
import Dispatch
import Synchronization
import Testing

/// `PipelineRun.changeStep(to:)`, the API an embedding program calls: at the realtime clock, a
/// step taken while a generator runs labels every sample at or after its time, and the sink
/// marks it there.
@Suite("changeStep through the API", .timeLimit(.minutes(20)))
struct LiveStepAPITests {
    @Test func aStepTakenThroughTheAPILabelsEverySampleAfterIt() throws {
        let registry = try PluginRegistry(StandardPlugins.all + [.collect])
        let spec = try PipelineLoader(registry: registry).load(
            text: """
                name: api-step
                clock: realtime
                sources:
                  gen: {type: generator, rate: 200}
                sinks:
                  out: {type: collect, inputs: [gen]}
                """, file: "api-step.yaml")
        let run = try PipelineRun(spec: spec, options: RunOptions(batchSize: 16, flushInterval: 0))
        // Counted as they leave the source; the test waits on the semaphores, bounded.
        let seen = Mutex(0)
        let before = DispatchSemaphore(value: 0)
        let after = DispatchSemaphore(value: 0)
        run.observe(component: "gen") { batch in
            let n = seen.withLock { n -> Int in
                n += batch.count
                return n
            }
            if n >= 20 && n - batch.count < 20 { before.signal() }
            if n >= 80 && n - batch.count < 80 { after.signal() }
        }
        try run.start()
        try #require(before.wait(timeout: .now() + 60) == .success, "the generator never got going")
        run.changeStep(to: "api/1")
        try #require(after.wait(timeout: .now() + 60) == .success, "the generator stopped")
        run.stop()
        _ = run.wait()

        let sink = try #require(run.plugin(named: "out") as? CollectSink)
        let samples = sink.samples
        let marker = try #require(samples.first { $0.kind == .marker && $0["marker"] == .string("step") })
        #expect(marker.stepPath == "api/1")
        let data = samples.filter { $0.kind == .data }
        let later = data.filter { $0.uptime >= marker.uptime }
        #expect(later.count >= 50, "\(later.count) samples after the step at \(marker.uptime)")
        #expect(later.allSatisfy { $0.stepPath == "api/1" })
        #expect(data.filter { $0.uptime < marker.uptime }.allSatisfy { $0.stepPath.isEmpty })
        // The marker sits before the first sample at or after its time, in the sink's order.
        let at = try #require(samples.firstIndex { $0.kind == .marker && $0["marker"] == .string("step") })
        #expect(samples[..<at].allSatisfy { $0.kind == .marker || $0.uptime < marker.uptime })
        #expect(samples[(at + 1)...].allSatisfy { $0.kind == .marker || $0.uptime >= marker.uptime })
    }
}
