import Foundation
import Testing

/// `daq tap`, `daq top` and `daq control` against a real running `daq run`.
@Suite("control socket")
struct ControlSocketTests {
    /// A live pipeline (stdin → filter v > 0 → logger.jsonl) with a name no other test uses.
    struct Running {
        let name: String
        let run: LiveProcess
        let output: String
        let socket: String
        let file: String

        init(extra: [String] = []) throws {
            name = "ctl-\(UUID().uuidString.prefix(8).lowercased())"
            output = FileManager.default.temporaryDirectory.appendingPathComponent("daq-\(name)").path
            file = output + ".yaml"
            try """
            name: \(name)
            sources:
              in: {type: stdin, format: jsonl}
            transforms:
              pos: {type: filter, inputs: [in], expr: "v > 0"}
            sinks:
              log: {type: logger.jsonl, inputs: [pos], directory: "\(output)"}
            """.write(toFile: file, atomically: true, encoding: .utf8)
            run = try LiveProcess(
                ["run", file, "--log-level", "info", "--status", "never", "--flush-interval", "0.05"] + extra)
            let line = try #require(run.line { $0.contains("control socket: ") }, "\(run.stderr)")
            socket = String(line[line.range(of: "control socket: ")!.upperBound...].prefix { $0 != " " })
        }
    }

    @Test func tapPrintsTheSamplesLeavingTheTappedComponentOnly() throws {
        let p = try Running()
        let tap = try LiveProcess(["tap", p.name, "p*", "--count", "5"])
        #expect(tap.line { $0 == "daq tap: tapping pos" } != nil, "\(tap.stderr)")
        for i in 0..<12 { p.run.send("{\"v\": \(i % 3), \"i\": \(i)}\n") }  // 8 pass the filter
        #expect(tap.finish() == 0, "\(tap.stderr)")
        let lines = tap.stdoutLines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        // The stream's descriptor comes first, then its samples.
        let descriptor = try #require(lines.first, "\(tap.stdoutLines)")
        #expect(descriptor["tap"] as? String == "descriptor" && descriptor["stream"] as? String == "pos")
        let samples = lines.filter { $0["tap"] == nil }
        #expect(samples.count == 5, "\(tap.stdoutLines)")
        #expect(samples.allSatisfy { $0["stream"] as? String == "pos" && ($0["v"] as? Int ?? 0) > 0 })
        #expect(samples.compactMap { $0["i"] as? Int } == [1, 2, 4, 5, 7])
        #expect(p.run.finish() == 0, "\(p.run.stderr)")
    }

    @Test func topShowsEveryComponentWithItsCounters() throws {
        let p = try Running()
        for i in 0..<30 { p.run.send("{\"v\": \(i % 3)}\n") }  // 20 reach the logger
        var table = ""
        var rows: [[String]] = []
        let deadline = Date(timeIntervalSinceNow: 30)
        repeat {  // until the logger has flushed what was sent; the assertions below say why not
            let top = try DAQBinary.run(["top", p.name, "--once", "--interval", "0.05"])
            #expect(top.status == 0, "\(top.err)")
            table = top.out
            rows = table.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        } while rows.first(where: { $0.first == "log" })?.suffix(3) != ["21", "21", "0"] && Date() < deadline
        #expect(rows.first?.first == p.name, "\(table)")
        #expect(rows.count == 5, "\(table)")  // title, header, in, pos, log
        let log = try #require(rows.first { $0.first == "log" }, "\(table)")
        #expect(log[1] == "logger.jsonl" && log[2] == "running", "\(table)")
        // 20 samples and the start marker, written and flushed.
        #expect(Array(log.suffix(3)) == ["21", "21", "0"], "sent, delivered, failed: \(table)")
        #expect(rows.first { $0.first == "pos" }?.contains("0/16384") == true, "\(table)")
        #expect(p.run.finish() == 0)
    }

    /// Two runs of one pipeline and a third, unrelated: `daq top NAME` cannot choose, and lists the
    /// two that match by pid, not the unrelated one.
    @Test func severalRunsOfANameAreListedAloneToChooseFrom() throws {
        let first = try Running()
        let second = try LiveProcess([
            "run", first.file, "--log-level", "info", "--status", "never", "--set",
            "sinks.log.directory=\(first.output)-second",
        ])
        #expect(second.line { $0.contains("control socket: ") } != nil, "\(second.stderr)")
        let other = try Running()
        let r = try DAQBinary.run(["top", first.name, "--once"])
        #expect(r.status != 0)
        let listed = r.err.split(separator: "\n").filter { $0.hasPrefix("  ") }
        #expect(listed.count == 2 && listed.allSatisfy { $0.contains(first.name) }, "\(r.err)")
        #expect(!r.err.contains(other.name), "\(r.err)")
        // Standard input closed, each run ends by itself.
        for run in [first.run, second, other.run] { #expect(run.finish() == 0, "\(run.stderr)") }
    }

    @Test func controlStepsPausesResumesAndStopsTheRun() throws {
        let p = try Running()
        p.run.send("{\"v\": 1}\n")
        let said = ["paused", "resumed", "step is now walk/return"]
        for (command, answer) in zip([["pause"], ["resume"], ["step", "walk/return"]], said) {
            let r = try DAQBinary.run(["control", p.name] + command)
            #expect(r.status == 0, "\(command): \(r.err)")
            // It says what the run took, rather than nothing.
            #expect(r.out == "\(p.name): \(answer)\n", "\(command): \(r.out)")
        }
        p.run.send("{\"v\": 2}\n")
        #expect(try DAQBinary.run(["control", p.name, "stop"]).status == 0)
        #expect(p.run.finish() == 0, "\(p.run.stderr)")  // stopped by the socket, stdin still open

        let runDir = try #require(try FileManager.default.contentsOfDirectory(atPath: p.output).first)
        let log = try String(contentsOfFile: "\(p.output)/\(runDir)/pos.jsonl", encoding: .utf8)
        #expect(log.contains("\"stepPath\":\"walk/return\""), "\(log)")
        #expect(!FileManager.default.fileExists(atPath: p.socket), "the socket is removed at the end")
    }

    @Test func theSocketIsPrivateAndLinkedFromTheRunDirectory() throws {
        let p = try Running()
        let socket = try FileManager.default.attributesOfItem(atPath: p.socket)
        #expect((socket[.posixPermissions] as? Int) == 0o600)
        let dir = (p.socket as NSString).deletingLastPathComponent
        #expect((try FileManager.default.attributesOfItem(atPath: dir)[.posixPermissions] as? Int) == 0o700)
        let runDir = try #require(try FileManager.default.contentsOfDirectory(atPath: p.output).first)
        let link = try FileManager.default.destinationOfSymbolicLink(atPath: "\(p.output)/\(runDir)/control.sock")
        #expect(link == p.socket)
        // The run directory works as RUN.
        #expect(try DAQBinary.run(["top", "\(p.output)/\(runDir)", "--once", "--interval", "0.05"]).status == 0)
        #expect(p.run.finish() == 0)
    }

    @Test func anUnknownRunOrComponentIsSaidPlainly() throws {
        let missing = try DAQBinary.run(["tap", "no-such-pipeline-\(UUID().uuidString.prefix(6))", "*"])
        #expect(missing.status == 1 && missing.err.contains("no running pipeline 'no-such-pipeline"), "\(missing.err)")
        let p = try Running()
        let wrong = try DAQBinary.run(["tap", p.name, "nothing*"])
        #expect(
            wrong.status == 2 && wrong.err.contains("no component matches 'nothing*'; components: in, pos, log"),
            "\(wrong.err)")
        #expect(p.run.finish() == 0)
    }
}
