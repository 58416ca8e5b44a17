import DAQCore
import DAQKit
import DAQTesting
import Foundation
import Testing

@testable import DAQCLI

/// The `file` source and `motion.replay` read the same cells the same way, and a run that went
/// past damaged input does not read as a clean success.
@Suite(.timeLimit(.minutes(20))) struct NumericInputTests {
    static func recording(_ text: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-num-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let path = dir + "/cells.csv"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    static let cells = ["NaN", "nan", "-nan", "inf", "-inf", "Infinity", "-Infinity", "1.5", "-2e-3", " 7 "]

    @Test(arguments: ["keep", "skip", "fail"])
    func fileAndReplayReadTheSameCellsTheSameWay(policy: String) throws {
        let path = try Self.recording(
            "t,x,y,z\n" + Self.cells.enumerated().map { i, c in "\(Double(i) / 10),\(c),0.5,1.5\n" }.joined())
        let yaml = """
            clock: virtual
            sources:
              file: {type: file, path: "\(path)", nan: \(policy), on_bad_row: skip}
              replay: {type: motion.replay, path: "\(path)", nan: \(policy), on_bad_row: skip}
            sinks:
              fromFile: {type: collect, inputs: [file]}
              fromReplay: {type: collect, inputs: [replay]}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: BuiltinPlugins.all)
        #expect(outcome.result.state == .finished)
        let a = outcome.data("fromFile").map { $0["x"]?.doubleValue }
        let b = outcome.data("fromReplay").map { $0["x"]?.doubleValue }
        let same =
            a.count == b.count && zip(a, b).allSatisfy { p, q in p == q || (p?.isNaN == true && q?.isNaN == true) }
        #expect(same, "file: \(a), motion.replay: \(b)")
        #expect(a.count == (policy == "keep" ? Self.cells.count : 3), "\(a)")
        // Both report each row they did not pass on.
        let errors = Dictionary(uniqueKeysWithValues: outcome.result.stages.map { ($0.name, $0.errors) })
        #expect(errors["file"] == errors["replay"] && errors["file"] == (policy == "keep" ? 0 : 7), "\(errors)")
    }

    @Test func aRunPastACutGzipSaysItFinishedWithErrors() throws {
        let walk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("recordings/walk.csv").path
        let dir = String((try Self.recording("")).dropLast("/cells.csv".count))
        let gz = dir + "/walk.csv.gz"
        let zipped = try Process.runToEnd("/bin/sh", ["-c", "gzip -c \"$0\" > \"$1\"", walk, gz], timeout: 60)
        try #require(zipped.status == 0, "gzip(1) is needed: \(zipped.errors)")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: gz)[.size] as? Int)
        #expect(truncate(gz, off_t(size / 2)) == 0)
        let yaml = """
            name: cut
            clock: virtual
            sources: {accel: {type: motion.replay, path: "\(gz)", on_bad_row: skip}}
            sinks: {out: {type: collect, inputs: [accel]}}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: BuiltinPlugins.all)
        #expect(outcome.result.state == .finished)
        let summary = RunSummary.text(outcome.result, pipeline: "cut")
        #expect(summary.hasPrefix("cut: finished with 1 error(s) in "), "\(summary)")
    }
}
