import Foundation
import Testing

/// What `--help` promises, the commands do: `tap` without RUN, `--trigger` refused where nothing
/// takes triggers, `control` naming `reload`, and `run --help` agreeing with docs/operating.md on reload.
@Suite("daq help tells the truth", .timeLimit(.minutes(20)))
struct CLIHelpTruthTests {
    @Test func triggerIsRefusedWhenNoComponentTakesTriggers() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("daq-trigger-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try DAQBinary.run(
            ["run", "pipelines/barcode-replay.yaml", "--trigger", "t", "--set", "clock=virtual", "--quiet"],
            environment: ["OUTPUT": out.path])
        #expect(r.status == 2, "\(r.err)")
        #expect(r.err.contains("--trigger and --cancel-key need a component that takes triggers"), "\(r.err)")
        #expect(r.err.contains("barcode.replay of a scan log reads its triggers from the log"), "\(r.err)")
    }

    @Test func aScanLogRefusesTriggerFromWithTheReason() throws {
        let r = try DAQBinary.run([
            "validate", "pipelines/barcode-replay.yaml", "--set", "sources.scanner.mode=triggered", "--set",
            "sources.scanner.trigger_from=scanner",
        ])
        #expect(r.status == 2)
        #expect(r.err.contains("a scan log carries its own triggers"), "\(r.err)")
    }

    /// Every option states its default once: `--jobs` said it in words and again as this machine's count.
    @Test func batchHelpStatesEachDefaultOnce() throws {
        let help = try DAQBinary.run(["batch", "--help"]).out
        let jobs = try #require(help.range(of: "\n  --jobs <jobs>"))
        let after = help[jobs.upperBound...]
        let text = after[..<(after.range(of: "\n  -")?.lowerBound ?? after.endIndex)]
        #expect(text.components(separatedBy: "default").count == 2, "\(text)")
    }

    @Test func controlHelpNamesReload() throws {
        let help = try DAQBinary.run(["control", "--help"]).out.split(whereSeparator: \.isWhitespace).joined(
            separator: " ")
        #expect(help.contains("pause, resume, stop, reload, step PATH"), "\(help)")
        #expect(help.contains("reload applies the pipeline file again"), "\(help)")
    }

    @Test func runHelpSaysWhatReloadRestartsAsTheDocsDo() throws {
        let help = try DAQBinary.run(["run", "--help"]).out.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(!help.contains("need a restart and are refused"), "\(help)")
        #expect(help.contains("any other changed component drains, stops and starts again"), "\(help)")
        let readme = try String(
            contentsOf: DAQBinary.repository.appendingPathComponent("docs/operating.md"), encoding: .utf8)
        #expect(readme.contains("**Any other changed component**"))
        #expect(readme.contains("The clock, the steps, the pipeline's name and the `metrics` section only"))
    }

    @Test func tapTakesAGlobAloneWhenOneRunIsActive() throws {
        let file = try ObservabilityTests.pipeline(
            """
            name: tap-alone-\(UUID().uuidString.prefix(8))
            sources:
              in: {type: stdin, format: jsonl}
            sinks:
              out: {type: null, inputs: [in]}
            """)
        // A runtime directory of its own, so no other run on this machine is "the only one".
        let runtime = FileManager.default.temporaryDirectory.appendingPathComponent("daq-xdg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: runtime) }
        let environment = ["XDG_RUNTIME_DIR": runtime.path]
        let run = try LiveProcess(["run", file, "--log-level", "info"], environment: environment)
        #expect(run.line { $0.contains("control socket:") } != nil, "\(run.stderr)")
        // `in` names no run: it is the pattern, and the run is the only one there is.
        let tap = try LiveProcess(["tap", "in", "--count", "1"], environment: environment)
        #expect(tap.line { $0.contains("daq tap: tapping in") } != nil, "\(tap.stderr)")
        run.send("{\"v\": 1}\n")
        #expect(tap.finish() == 0, "\(tap.stderr)")
        // The stream's descriptor, then its sample.
        #expect(tap.stdoutLines.first?.hasPrefix("{\"tap\":\"descriptor\"") == true, "\(tap.stdoutLines)")
        #expect(tap.stdoutLines.dropFirst().first?.contains("\"v\":1") == true, "\(tap.stdoutLines) \(tap.stderr)")
        #expect(run.finish() == 0)
    }
}
