import Foundation
import Testing

/// `daq test` run as a user runs it: the shipped tests pass, the fixtures that fail on purpose
/// fail at the lines they mark, and invalid test files are reported where they are wrong.
@Suite("daq test", .timeLimit(.minutes(20)))
struct ConfigTestCLITests {
    static let passing = DaqCommand.testFiles(in: "pipelines")
    static let failing = DaqCommand.testFiles(in: "Tests/Fixtures/daqtest")
    static let invalid = DaqCommand.testFiles(in: "Tests/Fixtures/daqtest/invalid")

    @Test func everyPipelineHasAPassingAndAFailingTest() throws {
        let pipelines = try FileManager.default.contentsOfDirectory(
            atPath: DaqCommand.root.appendingPathComponent("pipelines").path
        )
        .filter { $0.hasSuffix(".yaml") && !$0.hasSuffix(".daqtest.yaml") }.sorted()
        #expect(pipelines.count >= 15)
        // A config test runs the pipeline's sinks on this machine's network: the lsl outlet is
        // tested inside a network namespace instead (Tests/DAQLSLTests, LSLSinkTests), and the
        // postgres sink against a server its own tests start (Tests/DAQStorageTests).
        let publishesOnTheNetwork: Set = ["lsl-outlet.yaml", "to-postgres.yaml"]
        for p in pipelines where !publishesOnTheNetwork.contains(p) {
            let name = String(p.dropLast(".yaml".count))
            #expect(Self.passing.contains("pipelines/\(name).daqtest.yaml"), "no passing test of \(p)")
            #expect(
                Self.failing.contains("Tests/Fixtures/daqtest/\(name).fail.daqtest.yaml"), "no failing test of \(p)")
        }
    }

    /// Every shipped test runs, none skipped: the Info Manager tests start the reference server
    /// themselves, and the broker tests get a real Mosquitto on loopback in MQTT_URL.
    @Test func theShippedTestsPass() throws {
        // No FILE: every *.daqtest.yaml under pipelines/.
        let r = try DaqCommand.runWithBroker(["test"])
        #expect(r.status == 0, "\(r.output)\n\(r.errors)")
        let passed = r.output.split(separator: "\n").filter { $0.hasPrefix("✔ ") }
        for file in Self.passing { #expect(passed.contains { $0.hasPrefix("✔ \(file): ") }, "\(file) not run") }
        #expect(r.output.hasSuffix("\(passed.count) passed, 0 failed\n"), "\(r.output)")
        #expect(!r.output.contains("✘"))
        #expect(!r.output.split(separator: "\n").contains { $0.hasPrefix("- ") }, "a case was skipped:\n\(r.output)")
    }

    /// Without MQTT_URL the broker tests are listed as skipped, with the reason, and do not fail.
    @Test func testsNeedingABrokerAreSkippedWithoutOne() throws {
        let files = try Self.passing.filter(DaqCommand.needsBroker)
        #expect(files.count == 2)
        let r = try DaqCommand.run(["test"] + files, environment: ["MQTT_URL": nil])
        #expect(r.status == 0, "\(r.output)\n\(r.errors)")
        let skipped = r.output.split(separator: "\n").filter {
            $0.hasPrefix("- ") && $0.hasSuffix(" (skipped: needs MQTT_URL, which is not set)")
        }
        #expect(skipped.count >= 4, "\(r.output)")
        #expect(r.output.hasSuffix("0 passed, 0 failed, \(skipped.count) skipped\n"), "\(r.output)")
    }

    @Test(arguments: failing)
    func aFailingTestShowsExpectedAndActualAtItsLine(_ file: String) throws {
        let marks = try Self.marks("# FAILS", in: file)
        #expect(!marks.isEmpty, "\(file) marks no line with # FAILS")
        let arguments = ["test", file]
        let r = try DaqCommand.needsBroker(file) ? DaqCommand.runWithBroker(arguments) : DaqCommand.run(arguments)
        #expect(r.status == 1, "\(r.output)\n\(r.errors)")
        let lines = r.output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        for mark in marks {
            // The place, then the expectation and the outcome under it.
            guard let at = lines.firstIndex(where: { $0.hasPrefix("  \(file):\(mark.line):") }) else {
                Issue.record("\(file):\(mark.line) not reported:\n\(r.output)")
                continue
            }
            #expect(
                lines.count > at + 2 && lines[at + 1].hasPrefix("    expected: ")
                    && lines[at + 2].hasPrefix("    actual:   "))
        }
        #expect(
            lines.filter { $0.hasPrefix("    expected: ") }.count == marks.count,
            "only the marked lines fail:\n\(r.output)")
        #expect(r.output.hasSuffix("0 passed, 1 failed\n"), "\(r.output)")
    }

    @Test(arguments: invalid)
    func anInvalidTestFileIsReportedWhereItIsWrong(_ file: String) throws {
        var marks = try Self.marks("# ERROR", in: file)
        // An invalid pipeline beside the test file marks its own error.
        let text = try String(contentsOf: DaqCommand.root.appendingPathComponent(file), encoding: .utf8)
        if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("pipeline: ") }),
            let name = line.dropFirst("pipeline: ".count).split(separator: " ").first, !name.hasPrefix(".")
        {
            let pipeline = (file as NSString).deletingLastPathComponent + "/" + name
            marks += try Self.marks("# ERROR", in: pipeline)
        }
        #expect(!marks.isEmpty, "\(file) marks no line with # ERROR")
        let r = try DaqCommand.run(["test", file])
        #expect(r.status == 2, "\(r.output)\n\(r.errors)")
        let diagnostics = r.errors.split(separator: "\n").map(String.init)
        for mark in marks {
            let prefix = "\(mark.file):\(mark.line):" + (mark.column.map { "\($0):" } ?? "")
            #expect(
                diagnostics.contains { $0.hasPrefix(prefix) && $0.contains(" error: ") },
                "\(prefix) not reported:\n\(r.errors)")
        }
        #expect(diagnostics.count == marks.count, "only the marked lines are reported:\n\(r.errors)")
        #expect(!r.output.contains("✔"))
    }

    @Test func aFailingCaseAmongPassingOnesExitsOne() throws {
        let r = try DaqCommand.run([
            "test", "pipelines/hello.daqtest.yaml", "Tests/Fixtures/daqtest/hello.fail.daqtest.yaml",
        ])
        #expect(r.status == 1, "\(r.output)\n\(r.errors)")
        #expect(r.output.hasSuffix("3 passed, 1 failed\n"), "\(r.output)")
    }

    @Test func anInvalidFileWinsOverFailingOnes() throws {
        let r = try DaqCommand.run([
            "test", "Tests/Fixtures/daqtest/hello.fail.daqtest.yaml",
            "Tests/Fixtures/daqtest/invalid/unknown-key.daqtest.yaml",
        ])
        #expect(r.status == 2, "\(r.output)\n\(r.errors)")
        #expect(r.output.contains("0 passed, 1 failed, invalid test files"))
    }

    @Test func aFolderIsSearchedAndAFilterPicksCases() throws {
        let r = try DaqCommand.run(["test", "pipelines", "--filter", "console"])
        #expect(r.status == 0, "\(r.output)\n\(r.errors)")
        #expect(
            r.output
                == "✔ pipelines/hello.daqtest.yaml: the console prints each window with its step\n1 passed, 0 failed\n")
    }

    /// Lines carrying `tag`, with the column after `tag:` when one is given (`# ERROR:7:`).
    static func marks(_ tag: String, in file: String) throws -> [(file: String, line: Int, column: Int?)] {
        let text = try String(contentsOf: DaqCommand.root.appendingPathComponent(file), encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { i, line in
            guard let range = line.range(of: tag), !line.hasPrefix("#") else { return nil }
            let rest = line[range.upperBound...]
            let column = rest.hasPrefix(":") ? Int(rest.dropFirst().prefix { $0.isNumber }) : nil
            return (file, i + 1, column)
        }
    }
}
