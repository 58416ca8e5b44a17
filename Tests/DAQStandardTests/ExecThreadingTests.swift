import DAQCore
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// `exec` makes no thread, queue or timer of its own: its program's pipes are watched, and its
/// hang watchdog and restarts are timers, all through the stage's context, which ends them.
@Suite("exec threading", .timeLimit(.minutes(20)))
struct ExecThreadingTests {
    @Test func theProgramsPipesAndWatchdogAreTheStagesAndEndWithIt() throws {
        let h = try TransformHarness(ExecTransform.self, config: "command: [sh, -c, 'cat > /dev/null']\ntimeout: 10s")
        // stdout and stderr watched, and the watchdog; stdin is watched only while it is full.
        #expect(h.context.runningTaskCount == 3)
        _ = try h.finish()
        #expect(h.context.runningTaskCount == 0)
    }

    @Test func aProgramWritingFarAheadOfThePipelineLosesNothing() throws {
        // Three times what is read ahead of the stage: its stdout is left unwatched, and watched
        // again, twice at least.
        let n = 3 * 4096 + 5
        let out = try PipelineHarness.run(
            yaml: """
                name: exec-ahead
                clock: virtual
                sources:
                  prog: {type: exec, command: [python3, -c, "for i in range(\(n)): print('{\\"i\\": %d}' % i)"]}
                sinks:
                  out: {type: collect, inputs: [prog]}
                """, plugins: StandardPlugins.all, options: RunOptions(batchSize: 16, flushInterval: 0))
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        #expect(out.data("out").map { $0["i"]?.intValue } == (0..<n).map { Int64($0) })
    }

    @Test func aSinksProgramHearsTheEndOfItsInputThroughAFullPipe() throws {
        // 64 KiB lines fill the pipe at once while the program reads slowly: stdin is written as
        // it takes it, and closed only after the last byte.
        let path = try ExecTests.script(
            """
            import json, sys, time
            sys.stdin.readline()
            n = 0
            for line in sys.stdin:
                s = json.loads(line)
                if s.get("daq") == "batch":
                    print(json.dumps({"daq": "ack", "batch": s["batch"]}), flush=True)
                elif "pad" in s:
                    n += 1
            print(n, file=sys.stderr, flush=True)
            """)
        let out = try PipelineHarness.run(
            yaml: """
                name: exec-full-pipe
                clock: virtual
                sources:
                  gen: {type: generator, signal: sine, rate: 100, count: 40}
                transforms:
                  pad: {type: exec, inputs: [gen], command: [python3, -c, "import json, sys\\nsys.stdin.readline()\\nfor line in sys.stdin:\\n    s = json.loads(line)\\n    if s.get('daq') == 'batch':\\n        print(json.dumps({'daq': 'ack', 'batch': s['batch']}), flush=True)\\n    else:\\n        s['pad'] = 'x' * 65536\\n        print(json.dumps(s))\\n"]}
                sinks:
                  store: {type: exec, inputs: [pad], command: [python3, \(path)]}
                """, plugins: StandardPlugins.all, options: RunOptions(batchSize: 8, flushInterval: 0))
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        let sink = out.result.stages.first { $0.name == "store" }!
        #expect(sink.delivered == sink.sent && sink.sent == 42, "\(sink)")
        #expect(out.events.contains { if case .notice(_, let m) = $0 { m == "stderr: 40" } else { false } })
    }

    @Test func programsStartedStoppedAndRestartedCloseOnlyTheirOwnDescriptors() throws {
        // Every way a program's pipes end, many times, while a sentinel takes every descriptor
        // number freed meanwhile: a second close of a pipe, or a watch closing its copy twice,
        // would close one of the sentinel's.
        let sink = try ExecTests.script(
            """
            import json, sys
            sys.stdin.readline()
            for line in sys.stdin:
                s = json.loads(line)
                if s.get("daq") == "batch":
                    print(json.dumps({"daq": "ack", "batch": s["batch"]}), flush=True)
            """)
        var failures: [String] = []
        let harmed = try DescriptorSentinel.watch {
            for round in 0..<6 {
                // Killed while it runs: the stage ends with its watches.
                let h = try TransformHarness(ExecTransform.self, config: "command: [sh, -c, 'cat > /dev/null']")
                _ = try h.finish()
                // Ends by itself, its output read to the end; a sink that drains until it exits;
                // a program that fails and is restarted until the policy gives up.
                let out = try PipelineHarness.run(
                    yaml: """
                        name: exec-churn
                        clock: virtual
                        sources:
                          counter: {type: exec, command: [sh, -c, 'for i in 1 2 3; do echo "{\\"n\\":$i}"; done']}
                          failing:
                            type: exec
                            command: [sh, -c, 'echo oops >&2; exit 3']
                            on_failure: restart
                            max_restarts: 2
                            restart_delay: 1ms
                        sinks:
                          store: {type: exec, inputs: [counter], command: [python3, \(sink)]}
                        """, plugins: StandardPlugins.all, options: RunOptions(batchSize: 2, flushInterval: 0))
                if !(out.result.failure ?? "").contains("exited with status 3") {
                    failures.append("round \(round): \(out.result.state) \(out.result.failure ?? "")")
                }
            }
        }
        #expect(harmed.isEmpty, "\(harmed.count) descriptors closed under their owner, e.g. \(harmed.prefix(3))")
        #expect(failures.isEmpty, "\(failures)")
    }
}
