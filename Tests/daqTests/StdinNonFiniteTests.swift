import Foundation
import Testing

/// `stdin` reads NaN and infinity in CSV and JSON Lines as the `file` source does, under the
/// same `nan:` policy, through the real `daq` process and its standard input.
@Suite(.timeLimit(.minutes(20))) struct StdinNonFiniteTests {
    func pipeline(_ source: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "daq-stdin-nan-\(UUID().uuidString).yaml"
        ).path
        let yaml = """
            name: stdin-nan
            sources: {in: {type: stdin, \(source)}}
            sinks: {out: {type: console, format: json, inputs: [in]}}
            """
        try Data(yaml.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aNaNCellFailsTheRunByLineByDefault() throws {
        let p = try LiveProcess(["run", try pipeline("format: csv"), "--no-control"])
        p.send("t,x\n0,1\n1,NaN\n2,3\n")
        #expect(p.finish() == 1, "\(p.stderr)")
        #expect(
            p.stderr.contains(
                "<stdin>:3: 'x' is NaN, not a finite number (nan: skip drops such lines, nan: keep passes them on)"),
            "\(p.stderr)")
    }

    @Test func skipDropsTheLineAndKeepPassesItOn() throws {
        let skip = try LiveProcess(["run", try pipeline("format: jsonl, nan: skip"), "--no-control"])
        skip.send("{\"x\": 1}\n{\"x\": -Infinity}\n{\"x\": 3}\n")
        #expect(skip.finish() == 0, "\(skip.stderr)")
        #expect(skip.stderr.contains("dropped <stdin>:2: 'x' is -inf (nan: skip)"), "\(skip.stderr)")
        #expect(skip.stdoutLines.filter { $0.contains("\"x\":") }.count == 2, "\(skip.stdoutLines)")

        let keep = try LiveProcess(["run", try pipeline("format: csv, nan: keep"), "--no-control"])
        keep.send("t,x\n0,1\n1,inf\n")
        #expect(keep.finish() == 0, "\(keep.stderr)")
        #expect(keep.stdoutLines.filter { $0.contains("\"x\":") }.count == 2, "\(keep.stdoutLines)")
    }
}
