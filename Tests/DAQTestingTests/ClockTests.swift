import DAQCore
import DAQStandard
import DAQTesting
import Testing

@Suite("Clocks")
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
    static func comparable(_ samples: [Sample]) -> [String] {
        samples.map { "\($0.kind) \($0.uptime) \($0.stepPath) \($0.fields)" }
    }

    @Test func windowOutputIsTheSameUnderEveryClock() throws {
        let virtual = try PipelineHarness.run(yaml: Self.yaml(clock: "virtual"), plugins: StandardPlugins.all)
        let replay = try PipelineHarness.run(yaml: Self.yaml(clock: "replay", speed: 4), plugins: StandardPlugins.all)
        let realtime = try PipelineHarness.run(yaml: Self.yaml(clock: "realtime"), plugins: StandardPlugins.all)
        let v = Self.comparable(virtual.data("out"))
        #expect(v.count > 10)
        #expect(Self.comparable(replay.data("out")) == v)
        #expect(Self.comparable(realtime.data("out")) == v)
    }

    @Test func replayPacesBySpeed() throws {
        // 60 samples at 100 Hz span 0.59 s of recorded time; at speed 4 that is ≥ 0.147 s of wall time.
        let replay = try PipelineHarness.run(yaml: Self.yaml(clock: "replay", speed: 4), plugins: StandardPlugins.all)
        #expect(replay.result.endDate - replay.result.startDate >= 0.59 / 4)
    }
}
