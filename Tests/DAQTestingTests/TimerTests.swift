import DAQCore
import DAQStandard
import DAQTesting
import Synchronization
import Testing

@Suite("Run-clock timers", .timeLimit(.minutes(20)))
struct TimerTests {
    @Test func aWindowClosesOnTheRunClockWhenTheSourceGoesQuiet() throws {
        // The sink's first `sent` is the start marker; the second can only be the window.
        let sends = Mutex(0)
        let waiter = EventWaiter { event in
            guard case .sent(sink: "out", samples: _, bytes: _) = event else { return false }
            return sends.withLock { n in
                n += 1
                return n == 2
            }
        }
        let registry = try PluginRegistry(StandardPlugins.all + [.source(QuietSource.self), .collect])
        let spec = try PipelineLoader(registry: registry, environment: [:]).load(
            text: """
                clock: realtime
                sources: {dev: {type: quiet, count: 5}}
                transforms: {win: {type: window, inputs: [dev], size: 100ms, grace: 50ms, field: v, stats: [count, max]}}
                sinks: {out: {type: collect, inputs: [win]}}
                """, file: "t.yaml")
        let run = try PipelineRun(spec: spec, options: RunOptions(flushInterval: 0), observers: [waiter])
        try run.start()
        #expect(waiter.wait(), "the window was never closed")
        let got = (run.plugin(named: "out") as! CollectSink).samples.filter { $0.kind == .data }
        // The source has not ended: only the run-clock tick can have closed the window.
        #expect(run.statistics.first { $0.name == "dev" }?.state == .running)
        #expect(got.count == 1)
        #expect(got.first?["count"] == .int(5))
        #expect(got.first?.uptime == 0.1)
        run.stop()
        #expect(run.wait().state == .finished)
    }

    @Test func windowTickClosesOnlyWhatIsPastItsGrace() throws {
        let h = try TransformHarness(WindowTransform.self, config: "size: 1\ngrace: 0.5\nfield: v")
        _ = try h.push([Sample(uptime: 0.2, fields: ["v": 1.0]), Sample(uptime: 1.1, fields: ["v": 2.0])])
        #expect(try h.transform.tick(now: 2.4, context: h.context).isEmpty)
        let closed = try h.transform.tick(now: 2.5, context: h.context)
        #expect(closed.samples.map(\.uptime) == [2])
    }
}
