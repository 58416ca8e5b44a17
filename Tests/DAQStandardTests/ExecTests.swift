import DAQCore
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// `exec` plugins with real programs (python3, sh): the protocol and every way a program fails.
@Suite("exec plugins", .timeLimit(.minutes(20)))
struct ExecTests {
    /// A script in a fresh directory; returns its path.
    static func script(_ text: String, name: String = "plugin.py") throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-exec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// generator (COUNT samples) → exec transform with `settings` → collect.
    static func transform(_ settings: String, count: Int = 100, batchSize: Int = 16) throws -> PipelineHarness.Outcome {
        try PipelineHarness.run(
            yaml: """
                name: exec-test
                clock: virtual
                sources:
                  gen: {type: generator, signal: sine, rate: 100, count: \(count)}
                transforms:
                  ext:
                    type: exec
                    inputs: [gen]
                \(settings.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
                sinks:
                  out: {type: collect, inputs: [ext]}
                """, plugins: StandardPlugins.all, options: RunOptions(batchSize: batchSize, flushInterval: 0))
    }

    static let echo = """
        import json, sys
        hello = json.loads(sys.stdin.readline())
        add = hello["config"]["add"]
        for line in sys.stdin:
            s = json.loads(line)
            if s.get("daq") == "batch":
                print(json.dumps({"daq": "ack", "batch": s["batch"]}), flush=True)
                continue
            s["added"] = add
            s["role"] = hello["role"]
            print(json.dumps(s))
        """

    @Test func aPythonTransformSeesEverySampleInOrderWithItsConfig() throws {
        let path = try Self.script(Self.echo)
        let out = try Self.transform("command: [python3, \(path)]\nconfig: {add: 7}")
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        let data = out.data("out")
        #expect(data.map { $0["seq"]?.intValue } == (0..<100).map { Int64($0) })
        #expect(data.allSatisfy { $0["added"]?.intValue == 7 && $0["role"]?.stringValue == "transform" })
        #expect(data[10].uptime == 0.1)
    }

    @Test func aShellSourceEndsWhenTheProgramExits() throws {
        let out = try PipelineHarness.run(
            yaml: """
                name: exec-source
                clock: virtual
                sources:
                  counter: {type: exec, command: [sh, -c, 'for i in 1 2 3 4 5; do echo "{\\"n\\":$i}"; done']}
                sinks:
                  out: {type: collect, inputs: [counter]}
                """, plugins: StandardPlugins.all)
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        #expect(out.data("out").map { $0["n"]?.intValue } == [1, 2, 3, 4, 5])
    }

    @Test func aSinkAcknowledgesWhatItStored() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "daq-exec-sink-\(UUID().uuidString).jsonl"
        ).path
        let path = try Self.script(
            """
            import json, sys
            sys.stdin.readline()
            with open(sys.argv[1], "w") as f:
                for line in sys.stdin:
                    s = json.loads(line)
                    if s.get("daq") == "batch":
                        f.flush()
                        print(json.dumps({"daq": "ack", "batch": s["batch"]}), flush=True)
                    elif "seq" in s:
                        f.write(line)
            """)
        let out = try PipelineHarness.run(
            yaml: """
                name: exec-sink
                clock: virtual
                sources:
                  gen: {type: generator, signal: sine, rate: 100, count: 50}
                sinks:
                  store: {type: exec, inputs: [gen], command: [python3, \(path), \(file)]}
                """, plugins: StandardPlugins.all, options: RunOptions(batchSize: 8, flushInterval: 0))
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        #expect(try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").count == 50)
        // The run's start and stop markers go to the program too, and are acknowledged with the rest.
        let sink = out.result.stages.first { $0.name == "store" }!
        #expect(sink.sent == 52 && sink.delivered == 52)
    }

    @Test func aProgramThatExitsFailsTheRunWithItsStatusAndStderr() throws {
        let path = try Self.script(
            """
            import sys
            sys.stdin.readline(); sys.stdin.readline()
            print("sensor library not found", file=sys.stderr, flush=True)
            sys.exit(3)
            """)
        let out = try Self.transform("command: [python3, \(path)]")
        #expect(out.result.state == .failed)
        let failure = out.result.failure ?? ""
        #expect(failure.contains("exited with status 3"), "\(failure)")
        #expect(failure.contains("sensor library not found"), "\(failure)")
    }

    @Test func restartSendsUnacknowledgedBatchesAgainAndNothingComesOutTwice() throws {
        let marker = FileManager.default.temporaryDirectory.appendingPathComponent(
            "daq-exec-crashed-\(UUID().uuidString)"
        ).path
        // The first start crashes at its third batch; the second runs to the end.
        let path = try Self.script(
            Self.echo.replacingOccurrences(
                of: """
                        if s.get("daq") == "batch":
                    """,
                with: """
                        if s.get("daq") == "batch" and s["batch"] == 3 and not os.path.exists("\(marker)"):
                            open("\(marker)", "w").close()
                            os._exit(9)
                        if s.get("daq") == "batch":
                    """
            ).replacingOccurrences(of: "import json, sys", with: "import json, os, sys"))
        let out = try Self.transform(
            "command: [python3, \(path)]\nconfig: {add: 1}\non_failure: restart\nrestart_delay: 10ms")
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        #expect(out.data("out").map { $0["seq"]?.intValue } == (0..<100).map { Int64($0) })
        #expect(FileManager.default.fileExists(atPath: marker))
        #expect(
            out.events.contains {
                if case .warning(_, let m) = $0 {
                    return m.contains("exited with status 9") && m.contains("restart 1 of 5")
                }
                return false
            })
    }

    @Test func aHungProgramIsDetected() throws {
        let path = try Self.script("import sys\nfor line in sys.stdin: pass\n")
        let out = try Self.transform("command: [python3, \(path)]\ntimeout: 300ms")
        #expect(out.result.state == .failed)
        #expect((out.result.failure ?? "").contains("wrote nothing for 0.3 s"), "\(out.result.failure ?? "")")
    }

    @Test(arguments: [
        ("print('hello there', flush=True)", "stdout line 1: not JSON"),
        ("print('[1, 2]', flush=True)", "stdout line 1: expected a JSON object, found array"),
        ("print('{\"daq\": \"nack\"}', flush=True)", "unknown control line 'nack'"),
        ("sys.stdout.write('x' * 100_000_000); sys.stdout.flush()", "longer than 16777216 bytes without a newline"),
    ])
    func badOutputIsAClearError(code: String, message: String) throws {
        let path = try Self.script("import sys\nsys.stdin.readline()\n\(code)\nfor line in sys.stdin: pass\n")
        let out = try Self.transform("command: [python3, \(path)]", count: 10)
        #expect(out.result.state == .failed)
        #expect((out.result.failure ?? "").contains(message), "\(out.result.failure ?? "")")
    }

    /// Looked up as execvp does, so a missing program fails the start, named, before any sample.
    @Test func aMissingProgramIsNamed() throws {
        let error = #expect(throws: (any Error).self) { try Self.transform("command: [daq-no-such-program]", count: 5) }
        let text = error.map { "\($0)" } ?? ""
        #expect(text.contains("program 'daq-no-such-program' is not an executable file on PATH"), "\(text)")
    }
}
