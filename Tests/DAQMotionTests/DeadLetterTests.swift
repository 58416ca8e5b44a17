import DAQCore
import DAQMotion
import DAQTesting
import Testing

@Suite("motion.replay dead letters", .timeLimit(.minutes(20)))
struct MotionDeadLetterTests {
    @Test func aBadRowOfARecordingBecomesADeadLetterAndTheReplayGoesOn() throws {
        let path = recording("walk.csv", "time,x,y,z\n0,0,0,1\n0.01,0,zero,1\n0.02,0,0,1\n0.03,0,0\n0.04,0,0,1\n")
        let outcome = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {accel: {type: motion.replay, path: "\(path)", time_unit: s, on_error: dead_letter}}
                sinks:
                  good: {type: collect, inputs: [accel]}
                  dead: {type: collect, inputs: [accel.dead]}
                """, plugins: MotionPlugins.all)
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        #expect(outcome.data("good").count == 3)
        let dead = outcome.data("dead")
        // The row's text is gone once the CSV reader has split it: file and line stand in.
        #expect(dead.map { $0["raw"]?.stringValue } == ["\(path):3", "\(path):5"])
        #expect(dead.first?["error"]?.stringValue?.contains("y is not a number: 'zero'") == true, "\(dead)")
        #expect(dead.allSatisfy { $0["component"]?.stringValue == "accel" })
    }
}
