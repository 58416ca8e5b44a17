import DAQCore
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// `exec` as a supervisor: what a program is started as, what it is given, and that a stop
/// leaves nothing of it running.
@Suite("exec supervision")
struct ExecSupervisionTests {
    /// Whether process `pid` still runs (a zombie, dead but not yet reaped, does not).
    static func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return false }
        return stat[stat.index(close, offsetBy: 2)] != "Z"
    }

    static func source(_ command: String, _ extra: String = "") throws -> PipelineHarness.Outcome {
        try PipelineHarness.run(
            yaml: """
                name: exec-supervision
                clock: virtual
                sources:
                  prog: {type: exec, command: \(command)\(extra.isEmpty ? "" : ", " + extra)}
                sinks:
                  out: {type: collect, inputs: [prog]}
                """, plugins: StandardPlugins.all, options: RunOptions(maxSamples: 1, flushInterval: 0))
    }

    /// A program that starts a child of its own and never ends: the stop's SIGTERM reaches the
    /// child too, through the program's process group.
    @Test func noGrandchildOutlivesAStop() throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("daq-gc-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let out = try Self.source(
            #"[sh, -c, 'sleep 1000 & echo $! > \#(pidFile); echo "{\"n\":1}"; wait']"#, "stop_timeout: 2s")
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        #expect(out.data("out").map { $0["n"]?.intValue } == [1])
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        // The kill is sent before the run ends; its delivery is the kernel's, so a bounded look.
        let deadline = Date(timeIntervalSinceNow: 10)
        while Self.alive(pid) && Date() < deadline { usleep(1000) }
        #expect(!Self.alive(pid), "the grandchild \(pid) survived the stop")
        if Self.alive(pid) { kill(pid, SIGKILL) }
    }

    /// One that ignores SIGTERM is killed once `stop_timeout` has passed, and the run ends.
    @Test func aProgramIgnoringSIGTERMIsKilledAfterTheGrace() throws {
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("daq-tr-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let started = Date()
        let out = try Self.source(
            #"[sh, -c, 'trap "" TERM; echo $$ > \#(pidFile); echo "{\"n\":1}"; while :; do read x || sleep 1; done']"#,
            "stop_timeout: 0.5s")
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        #expect(Date().timeIntervalSince(started) < 30)
        let pid = try #require(Int32(try String(contentsOfFile: pidFile, encoding: .utf8).filter(\.isNumber)))
        let deadline = Date(timeIntervalSinceNow: 10)
        while Self.alive(pid) && Date() < deadline { usleep(1000) }
        #expect(!Self.alive(pid), "the program \(pid) survived the stop")
        if Self.alive(pid) { kill(pid, SIGKILL) }
    }

    /// A variable a `*_env` key names is not passed on unless `env:` names it; with
    /// `clear_environment` nothing of daq's environment is.
    @Test func secretsAndTheEnvironment() throws {
        let name = "DAQ_TEST_SECRET_\(UUID().uuidString.prefix(8))".replacingOccurrences(of: "-", with: "_")
        setenv(name, "hunter2", 1)
        defer { unsetenv(name) }
        // A script of its own: `${…}` in the pipeline's text would be the loader's to substitute.
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("daq-env-\(UUID().uuidString).sh")
        try """
        printf '{"secret":"%s","home":"%s"}\\n' "${\(name):-none}" "${HOME:-none}"
        """.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let echo = "[sh, \(script.path)]"
        let plain = try Self.source(echo)
        #expect(plain.data("out").first?["secret"]?.stringValue == "hunter2", "not yet named a secret")
        SecretVariables.insert(name)
        let hidden = try Self.source(echo)
        #expect(hidden.data("out").first?["secret"]?.stringValue == "none")
        #expect(hidden.data("out").first?["home"]?.stringValue != "none")
        let given = try Self.source(echo, "env: {\(name): given}")
        #expect(given.data("out").first?["secret"]?.stringValue == "given")
        let cleared = try Self.source(echo, "clear_environment: true, env: {PATH: /usr/bin:/bin}")
        #expect(cleared.data("out").first?["home"]?.stringValue == "none")
    }

    /// `command[0]` is executed directly: a first word that `env` would have taken as an
    /// assignment is a program name, and not found.
    @Test func theFirstWordIsTheProgram() throws {
        let error = #expect(throws: (any Error).self) { try Self.source("[MODE=fast, sh]") }
        #expect("\(error.map { "\($0)" } ?? "")".contains("program 'MODE=fast' is not an executable file on PATH"))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-exec-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "#!/bin/sh\necho '{\"n\":7}'\n".write(toFile: dir + "/prog", atomically: true, encoding: .utf8)
        chmod(dir + "/prog", 0o755)
        let relative = try Self.source("[./prog]", "cwd: \(dir)")
        #expect(relative.data("out").map { $0["n"]?.intValue } == [7], "\(relative.result.failure ?? "")")
    }
}
