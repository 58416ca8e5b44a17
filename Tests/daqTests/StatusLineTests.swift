import Foundation
import Testing

/// The live status line is redrawn in place without a newline; a warning written while it shows
/// must start on a cleared line, and the status comes back below it.
@Suite("daq run status line", .timeLimit(.minutes(20)))
struct StatusLineTests {
    static let clear = "\r\u{1B}[K"

    @Test func aWarningNeverRunsIntoTheStatusLine() throws {
        let file = try ObservabilityTests.pipeline(
            """
            sources:
              in: {type: stdin, format: jsonl, on_bad_row: skip}
            sinks:
              out: {type: null, inputs: [in]}
            """)
        let run = try LiveProcess(["run", file, "--status", "always"])
        run.send("{\"v\": 1}\n")
        let drawn = run.rawStderr { $0.contains(Self.clear) && $0.contains("in ") }
        #expect(drawn != nil, "no status line drawn: \(run.stderr)")
        run.send("not json\n")
        let raw = try #require(run.rawStderr { $0.contains("daq: warning: in: ") }, "no warning: \(run.stderr)")
        #expect(run.finish() == 0)
        let warning = try #require(raw.range(of: "daq: warning: in: "))
        let lineStart = raw[..<warning.lowerBound].lastIndex(of: "\n").map { raw.index(after: $0) } ?? raw.startIndex
        let before = raw[lineStart..<warning.lowerBound]
        // Whatever the status drew on this line, the last thing before the warning is a clear.
        #expect(before.hasSuffix(Self.clear), "the warning runs into \(before.debugDescription)")
        // And the status ("0.5s  in 2/s") is drawn again right after the warning's newline.
        let after = raw[warning.upperBound...]
        let rest = after[after.index(after: try #require(after.firstIndex(of: "\n")))...]
        #expect(rest.first?.isNumber == true, "\(rest.debugDescription)")
    }
}
