import DAQCore
import DAQStandard
import DAQTesting
import Dispatch
import Testing

@Suite("Clocks", .timeLimit(.minutes(20)))
struct ClockTests {
    static func yaml(clock: String, speed: Double = 1) -> String {
        """
        name: clocks
        clock: \(clock)
        speed: \(speed)
        sources:
          gen: {type: generator, signal: sine, rate: 100, frequency: 2, count: 60}
        transforms:
          win:
            type: window
            inputs: [gen]
            size: 100ms
            slide: 50ms
            field: value
            stats: [count, mean, min, max, first, last]
        sinks:
          out: {type: collect, inputs: [win]}
        """
    }

    /// What must not depend on the clock: the data, their run-clock times and step paths.
    /// Each window as text; its times on the generator's time base (the run's clock) are
    /// written from the run's start, which differs from run to run: `timestamp − uptime`.
    static func comparable(_ samples: [Sample]) -> [String] {
        samples.map { s in
            let origin = s.timestamp - s.uptime
            var fields = s.fields
            for key in ["window_start", "window_end"] {
                if let t = fields[key]?.doubleValue { fields[key] = .double(((t - origin) * 1e6).rounded() / 1e6) }
            }
            return "\(s.kind) \(s.uptime) \(s.stepPath) \(fields)"
        }
    }

    @Test func windowOutputIsTheSameUnderEveryClock() throws {
        let virtual = try PipelineHarness.run(yaml: Self.yaml(clock: "virtual"), plugins: StandardPlugins.all)
        let replay = try PipelineHarness.run(yaml: Self.yaml(clock: "replay", speed: 4), plugins: StandardPlugins.all)
        let realtime = try PipelineHarness.run(yaml: Self.yaml(clock: "realtime"), plugins: StandardPlugins.all)
        let v = Self.comparable(virtual.data("out"))
        // 60 samples 10 ms apart (0 to 0.59 s) in windows of 100 ms every 50 ms from 0: windows
        // start at 0, 0.05, …, 0.55, twelve of them; the first five samples fall in one window,
        // the other 55 in two, so the windows hold 115 samples in all.
        #expect(v.count == 12)
        #expect(virtual.data("out").compactMap { $0["count"]?.intValue }.reduce(0, +) == 115)
        #expect(Self.comparable(replay.data("out")) == v)
        #expect(Self.comparable(realtime.data("out")) == v)
    }

    @Test func replayPacesBySpeed() throws {
        // 60 samples at 100 Hz span 0.59 s of recorded time; at speed 4 that is ≥ 0.147 s of wall time.
        let replay = try PipelineHarness.run(yaml: Self.yaml(clock: "replay", speed: 4), plugins: StandardPlugins.all)
        #expect(replay.result.endDate - replay.result.startDate >= 0.59 / 4)
    }

    /// A replay far behind its clock, because the sink holds the transform back until the source
    /// has emitted everything: the window ticks the clock makes due meanwhile must wait for the
    /// samples already in the transform's buffer, or those land in the next window.
    @Test func aReplayHeldBackBehindItsClockGivesTheSameWindows() throws {
        let virtual = try PipelineHarness.run(yaml: Self.yaml(clock: "virtual"), plugins: StandardPlugins.all)
        let name = "replay-held-back"
        let gate = DispatchSemaphore(value: 0)
        GatedSink.gates.withLock { $0[name] = gate }
        let yaml = Self.yaml(clock: "replay", speed: 1000)
            .replacingOccurrences(of: "name: clocks", with: "name: \(name)")
            .replacingOccurrences(
                of: "{type: collect, inputs: [win]}", with: "{type: gated, inputs: [win], buffer: {size: 1}}")
        let registry = try PluginRegistry(StandardPlugins.all + [.sink(GatedSink.self)])
        let spec = try PipelineLoader(registry: registry, environment: [:]).load(text: yaml, file: "t.yaml")
        let sourceDone = EventWaiter {
            if case .state("gen", _, .finished) = $0 { return true } else { return false }
        }
        let run = try PipelineRun(
            spec: spec, options: RunOptions(batchSize: 4, flushInterval: 0), observers: [sourceDone])
        try run.start()
        // Every sample is out of the source and the clock is past every window: ticks are due.
        #expect(sourceDone.wait(), "the source never finished")
        gate.signal()
        #expect(run.wait().state == .finished)
        let got = (run.plugin(named: "out") as! GatedSink).received.withLock { $0 }
        #expect(Self.comparable(got) == Self.comparable(virtual.data("out")))
    }

    /// The same at the realtime clock: the sink holds the window back, the window holds the
    /// source back, and the clock passes every window while most samples still wait in the
    /// source. The window's timer must not close a window without them: while its source knows
    /// its samples' times ahead of the clock, the ticks wait for those samples, as in a replay.
    @Test func aRealtimeRunHeldBackBehindItsClockGivesTheSameWindows() throws {
        let virtual = try PipelineHarness.run(yaml: Self.yaml(clock: "virtual"), plugins: StandardPlugins.all)
        let name = "realtime-held-back"
        let gate = DispatchSemaphore(value: 0)
        GatedSink.gates.withLock { $0[name] = gate }
        let yaml = Self.yaml(clock: "realtime")
            .replacingOccurrences(of: "name: clocks", with: "name: \(name)")
            .replacingOccurrences(
                of: "{type: collect, inputs: [win]}", with: "{type: gated, inputs: [win], buffer: {size: 1}}"
            )
            .replacingOccurrences(of: "size: 100ms", with: "buffer: {size: 1}\n    size: 100ms")
        let registry = try PluginRegistry(StandardPlugins.all + [.sink(GatedSink.self)])
        let spec = try PipelineLoader(registry: registry, environment: [:]).load(text: yaml, file: "t.yaml")
        let run = try PipelineRun(spec: spec, options: RunOptions(batchSize: 4, flushInterval: 0))
        try run.start()
        // What the test is about is the run's clock passing the windows' ends while the data are
        // held: it waits for that clock (0.6 s of samples), not for a side effect of it.
        let left = try #require(run.clock.wallTime(until: 1)).components
        let nanos = Int(clamping: left.seconds * 1_000_000_000 + left.attoseconds / 1_000_000_000)
        _ = DispatchSemaphore(value: 0).wait(timeout: .now() + .nanoseconds(nanos))
        gate.signal()
        #expect(run.wait().state == .finished)
        let got = (run.plugin(named: "out") as! GatedSink).received.withLock { $0 }
        #expect(Self.comparable(got) == Self.comparable(virtual.data("out")))
    }
}
