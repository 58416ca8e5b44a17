import DAQCore
import DAQStandard
import DAQTesting
import Testing

@Suite("Lifecycle, markers, limits", .timeLimit(.minutes(20)))
struct LifecycleTests {
    let plugins = StandardPlugins.all + [.transform(FailingTransform.self)]

    func states(_ events: [PipelineEvent], _ component: String?) -> [LifecycleState] {
        events.compactMap { if case .state(component, _, let to) = $0 { return to } else { return nil } }
    }

    @Test func pipelineAndStagesGoThroughTheirStatesInOrder() throws {
        let out = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {gen: {type: generator, count: 10}}
                sinks: {out: {type: collect, inputs: [gen]}}
                """, plugins: plugins)
        #expect(states(out.events, nil) == [.starting, .running, .stopping, .finished])
        #expect(states(out.events, "gen") == [.starting, .running, .stopping, .finished])
        #expect(states(out.events, "out") == [.starting, .running, .stopping, .finished])
        #expect(out.result.state == .finished)
    }

    @Test func markersArriveInOrderWithTheData() throws {
        let out = try PipelineHarness.run(
            yaml: """
                clock: virtual
                steps:
                  - {path: a, at: 0}
                  - {path: b, at: 0.25}
                  - {path: c, at: 0.5}
                sources: {gen: {type: generator, rate: 10, count: 8}}
                sinks: {out: {type: collect, inputs: [gen]}}
                """, plugins: plugins)
        let all = out.collected["out"]!
        let kinds = all.map { $0.kind == .marker ? "M:\($0.stepPath)" : "\($0.uptime)" }
        #expect(kinds == ["M:a", "0.0", "0.1", "0.2", "M:b", "0.3", "0.4", "M:c", "0.5", "0.6", "0.7", "M:c"])
        #expect(all.filter { $0.kind == .data }.map(\.stepPath) == ["a", "a", "a", "b", "b", "c", "c", "c"])
        let steps = out.events.compactMap { if case .stepChanged(let p, _) = $0 { return p } else { return nil } }
        #expect(steps == ["a", "b", "c"])
    }

    @Test func fanOutAndFanIn() throws {
        let out = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources:
                  a: {type: generator, count: 5}
                  b: {type: generator, count: 7}
                transforms:
                  both: {type: select, inputs: [a, b], fields: [seq]}
                sinks:
                  one: {type: collect, inputs: [both]}
                  two: {type: collect, inputs: [both, a]}
                """, plugins: plugins)
        #expect(out.data("one").count == 12)
        #expect(out.data("two").count == 17)
    }

    @Test func maxSamplesAndDurationStopTheRun() throws {
        let yaml = """
            clock: virtual
            sources: {gen: {type: generator, rate: 100}}
            sinks: {out: {type: collect, inputs: [gen]}}
            """
        let limited = try PipelineHarness.run(
            yaml: yaml, plugins: plugins, options: RunOptions(maxSamples: 250, flushInterval: 0))
        #expect(limited.data("out").count == 250)
        #expect(limited.result.state == .finished)
        let timed = try PipelineHarness.run(
            yaml: yaml, plugins: plugins, options: RunOptions(duration: 1.5, flushInterval: 0))
        #expect(timed.data("out").count == 150)
        #expect(timed.data("out").last!.uptime < 1.5)
    }

    @Test func aFailingStageFailsTheRunAndSinksStillClose() throws {
        let out = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {gen: {type: generator, count: 5000}}
                transforms: {bad: {type: failing, inputs: [gen], fail_at: 3000}}
                sinks: {out: {type: collect, inputs: [bad]}}
                """, plugins: plugins, options: RunOptions(batchSize: 100, flushInterval: 0))
        #expect(out.result.state == .failed)
        #expect(out.result.failure?.contains("boom") == true)
        #expect(states(out.events, "out").last == .finished)
        #expect(out.data("out").count == 3000)
        #expect(out.events.contains { if case .failed("bad", _) = $0 { return true } else { return false } })
    }

    @Test func stopFromOutsideDrainsEverything() throws {
        let out = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {gen: {type: generator, rate: 1000}}
                sinks: {out: {type: collect, inputs: [gen]}}
                """, plugins: plugins, control: { $0.stop() })
        #expect(out.result.state == .finished)
        let emitted = out.result.stages.first { $0.name == "gen" }!.samplesOut
        #expect(out.data("out").count == emitted)
    }
}
