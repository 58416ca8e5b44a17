import DAQCore
import Foundation
import Testing

/// `daq plugins new --exec python`: each kind is generated, its unittest run, and its pipeline
/// run through the built `daq` from the generated folder, as its README says.
@Suite("daq plugins new --exec python", .timeLimit(.minutes(20)))
struct ScaffoldExecTests {
    @Test(arguments: PluginKind.allCases)
    func runsAsGenerated(_ kind: PluginKind) throws {
        let scratch = try Scratch()
        let new = try Daq.run(
            ["plugins", "new", "lab.probe", "--kind", kind.rawValue, "--exec", "python", "--output", "p"],
            in: scratch.url)
        #expect(new.status == 0, "\(new.stderr)")
        let script = "lab_probe_\(kind.rawValue).py"
        #expect(try scratch.files(under: "p") == ["README.md", "lab.probe.yaml", script, "test_\(script)"].sorted())
        let folder = scratch.url.appendingPathComponent("p")
        let permissions =
            try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(script).path)[
                .posixPermissions] as? Int
        #expect(permissions == 0o755)

        let unittest = try Daq.run(["python3", "-m", "unittest", "-v"], in: folder, executable: "/usr/bin/env")
        #expect(unittest.status == 0, "\(unittest.stderr)")
        #expect(unittest.stderr.contains("Ran 2 tests"))

        let run = try Daq.run(["run", "lab.probe.yaml", "--quiet"], in: folder)
        #expect(run.status == 0, "\(run.stderr)")
        let output = try scratch.read("p/out/lab.probe.\(kind == .sink ? "tsv" : "jsonl")")
        let lines = output.split(separator: "\n").map(String.init)
        switch kind {
        case .source:
            let samples = try lines.map { try object($0) }
            #expect(samples.map { $0["seq"]?.intValue } == (0..<20).map { Int64($0) })
            #expect(samples.allSatisfy { s in s["value"]?.doubleValue == 0.5 * s["seq"]!.doubleValue! })
            #expect(samples.allSatisfy { s in s["uptime"]?.doubleValue == s["seq"]!.doubleValue! / 10 })
        case .transform:
            let samples = try lines.map { try object($0) }
            #expect(samples.count == 20)
            #expect(samples.allSatisfy { s in s["calibrated"]?.doubleValue == 2 * s["value"]!.doubleValue! + 1 })
            #expect(Set(samples.compactMap { $0["value"]?.doubleValue }) == Set((0..<20).map(Double.init)))
        case .sink:
            #expect(lines.first == "uptime\tvalue\tseq")
            // Numbers as Python prints what daq sent: compared as numbers, not as text.
            let rows: [[Double?]] = lines.dropFirst().map {
                $0.split(separator: "\t", omittingEmptySubsequences: false).map { Double($0) }
            }
            let expected: [[Double?]] = (0..<20).map { i in [Double(i) / 10, Double(i), Double(i)] }
            #expect(rows == expected)
        }
    }

    private func object(_ line: String) throws -> Fields {
        guard case .object(let fields) = try JSONParser.parse(Array(line.utf8)) else {
            throw NotAnObject(line: line)
        }
        return fields
    }
}

/// An output line that is JSON but not a sample.
struct NotAnObject: Error {
    var line: String
}
