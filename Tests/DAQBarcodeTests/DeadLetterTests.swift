import DAQBarcode
import DAQCore
import DAQTesting
import Testing

@Suite("barcode.replay dead letters", .timeLimit(.minutes(20)))
struct BarcodeDeadLetterTests {
    @Test func anUnreadableScanLogLineBecomesADeadLetter() throws {
        let log = file(
            "scans.jsonl",
            """
            {"timestamp": 0, "code": "4006381333931"}
            {"timestamp": 1, "code":
            {"timestamp": 2, "code": "4006381333932"}
            """)
        let outcome = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {scanner: {type: barcode.replay, path: "\(log)", on_error: dead_letter}}
                sinks:
                  good: {type: collect, inputs: [scanner]}
                  dead: {type: collect, inputs: [scanner.dead]}
                """, plugins: BarcodePlugins.all)
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        #expect(outcome.data("good").filter { $0.event == "scan.data" }.count == 2)
        let dead = outcome.data("dead")
        #expect(dead.map { $0["raw"]?.stringValue } == ["{\"timestamp\": 1, \"code\":"])
        #expect(dead.first?["error"]?.stringValue?.hasPrefix("\(log):2: ") == true, "\(dead)")
    }
}
