import DAQBLE
import DAQCore
import DAQTesting
import Testing

@Suite("ble.replay dead letters", .timeLimit(.minutes(20)))
struct BLEDeadLetterTests {
    @Test func aDamagedRecordOfACaptureBecomesADeadLetter() throws {
        var bytes = CaptureWriter.btsnoop([(1, CaptureTests.twoReports), (2, CaptureTests.twoReports)])
        bytes.removeLast(10)
        let path = CaptureWriter.write(bytes, name: "cut.log")
        let outcome = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {air: {type: ble.replay, path: "\(path)", on_error: dead_letter}}
                sinks:
                  good: {type: collect, inputs: [air]}
                  dead: {type: collect, inputs: [air.dead]}
                """, plugins: BLEPlugins.all)
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        #expect(outcome.data("good").count == 2)
        let dead = outcome.data("dead")
        #expect(dead.count == 1)
        #expect(dead.first?["raw"]?.stringValue?.hasPrefix("\(path): byte ") == true, "\(dead)")
        #expect(dead.first?["error"]?.stringValue?.contains("the last btsnoop record, of") == true, "\(dead)")
        #expect(dead.first?["component"]?.stringValue == "air")
    }
}
