import DAQTesting
import Foundation
import Testing

/// Runs the real `daq` binary, as a user would.
enum DAQBinary {
    /// The `daq` executable built next to this test bundle.
    static var url: URL {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("daq")
    }

    static var repository: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// Runs a tool on PATH (`swift`, `python3`) in the repository to completion, with `input`
    /// on its standard input; returns exit status, stdout and stderr. Both outputs are read at
    /// once, and one still running after `timeout` seconds is killed and thrown as ``ChildTimeout``.
    static func tool(
        _ arguments: [String], input: Data? = nil, timeout: Double = 600
    ) throws -> (status: Int32, out: Data, err: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = arguments
        p.currentDirectoryURL = repository
        let r = try p.runToEnd(input: input, timeout: timeout)
        return (r.status, r.stdout, r.errors)
    }

    /// Runs `daq` to completion; returns exit status, stdout and stderr. `unset` names variables
    /// of this process's environment that `daq` must not see. Both outputs are read at once, and
    /// one still running after `timeout` seconds is killed and thrown as ``ChildTimeout``.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], unset: [String] = [], timeout: Double = 300
    ) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = url
        p.arguments = arguments
        p.currentDirectoryURL = repository
        p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }.filter {
            !unset.contains($0.key)
        }
        let r = try p.runToEnd(timeout: timeout)
        return (r.status, r.output, r.errors)
    }
}

@Suite("daq run and signals", .timeLimit(.minutes(20)))
struct SignalTests {
    @Test func sigintStopsGracefullyWithACompleteFile() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-signal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let pipeline = dir.appendingPathComponent("endless.yaml")
        let output = dir.appendingPathComponent("out.jsonl")
        try """
        name: endless
        clock: realtime
        sources:
          gen: {type: generator, signal: sine, rate: 2000}
        sinks:
          log: {type: file, inputs: [gen], path: "\(output.path)"}
        """.write(to: pipeline, atomically: true, encoding: .utf8)

        let daq = try LiveProcess([
            "run", pipeline.path, "--events", "jsonl", "--flush-interval", "0.05", "--status", "never",
        ])
        // Wait until the sink has delivered something.
        try #require(daq.line { $0.contains("\"event\":\"delivered\"") } != nil, "\(daq.stderr)")
        kill(daq.process.processIdentifier, SIGINT)
        let status = daq.finish()
        let seen = daq.stderr

        #expect(status == 0, "stderr: \(seen.suffix(2000))")
        #expect(seen.contains("endless: finished"))
        let text = try String(contentsOf: output, encoding: .utf8)
        #expect(text.hasSuffix("\n"), "the last line is complete")
        let lines = text.split(separator: "\n")
        #expect(lines.count > 10)
        for line in lines { #expect(line.hasPrefix("{") && line.hasSuffix("}")) }
        // Every generated sample reached the file: the summary's `out` for gen equals the data lines.
        let data = lines.filter { !$0.contains("\"kind\":\"marker\"") }.count
        let genLine = seen.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix("gen ") }
        let genOut = genLine.flatMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(3).first }
        #expect(genOut.map(String.init) == String(data))
        try? FileManager.default.removeItem(at: dir)
    }

    @Test func aSecondSignalCancelsEvenWhenASinkIsStuck() throws {
        // The console sink writes into a pipe nobody reads: once the pipe is full the sink is stuck
        // in write(2), backpressure reaches the source, and a graceful stop cannot drain.
        let daq = try LiveProcess(
            [
                "run", "pipelines/bench-engine.yaml", "--set", "sinks.discard.type=console", "--set",
                "sinks.discard.inputs=gen", "--events", "jsonl", "--status", "never",
            ], readsStdout: false)
        try #require(daq.line { $0.contains("backpressure") } != nil, "\(daq.stderr)")
        kill(daq.process.processIdentifier, SIGINT)
        try #require(daq.line { $0.contains("daq: stopping") } != nil, "\(daq.stderr)")
        kill(daq.process.processIdentifier, SIGINT)
        #expect(daq.finish() == 130, "\(daq.stderr.suffix(2000))")
    }

    @Test func exitCodesDistinguishBadConfigurationFromSuccess() throws {
        let ok = try DAQBinary.run(["run", "pipelines/hello.yaml", "--set", "clock=virtual", "--quiet"])
        #expect(ok.status == 0)
        #expect(ok.out.contains("stats"))
        let bad = try DAQBinary.run(["run", "pipelines/hello.yaml", "--set", "clock=sometimes"])
        #expect(bad.status == 2)
        #expect(bad.err.contains("error: clock: unknown value 'sometimes'"))
        let usage = try DAQBinary.run(["run"])
        #expect(usage.status == 64)
    }
}

@Suite("daq batch as a process", .timeLimit(.minutes(20)))
struct BatchProcessTests {
    @Test func exitsOneWhenARecordingFailsAndPrintsTheTable() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-batchp-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try FileManager.default.copyItem(atPath: "recordings/walk.csv".asRepositoryPath, toPath: "\(dir)/good.csv")
        try "timestamp,x,y,z\n0,a,2,3\n".write(toFile: "\(dir)/bad.csv", atomically: true, encoding: .utf8)
        let r = try DAQBinary.run([
            "batch", "pipelines/reference-job.yaml", "--input", "\(dir)/*.csv", "--output", "\(dir)/out", "--jobs", "2",
        ])
        #expect(r.status == 1)
        #expect(r.err.contains("bad.csv:2: x is not a number: 'a'"))
        #expect(r.err.contains("2 recordings: 1 finished, 0 skipped (already done), 1 failed"))
        let csv = try String(contentsOfFile: "\(dir)/out/good/reference-job.csv", encoding: .utf8)
        #expect(csv.split(separator: "\n").count == 6001)
    }
}

extension String {
    var asRepositoryPath: String { DAQBinary.repository.appendingPathComponent(self).path }
}
