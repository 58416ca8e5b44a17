import DAQCore
import DAQMotion
import DAQTesting
import Testing

/// A recording's bad row fails the run with a ``DAQError`` placed at the row's line.
@Suite(.timeLimit(.minutes(20))) struct BadRowErrorTests {
    @Test func aBadRowIsBadInputAtItsLine() throws {
        var rows = (0..<200).map { "\(Double($0) / 100),\($0),0,1\n" }
        rows[148] = "1.48,148,zero,1\n"  // line 150 of the file
        let path = recording("walk.csv", "t,x,y,z\n" + rows.joined())
        let outcome = try PipelineHarness.run(
            yaml: """
                sources: {accel: {type: motion.replay, path: "\(path)"}}
                sinks: {out: {type: collect, inputs: [accel]}}
                """, plugins: MotionPlugins.all)
        let error = try #require(outcome.result.error)
        #expect(error.code == .badInput)
        #expect(error.component == "accel")
        #expect(error.location == DAQError.Location(file: path, line: 150))
        #expect(error.message == "\(path):150: y is not a number: 'zero'")
        #expect(outcome.data("out").count == 148)
    }
}
