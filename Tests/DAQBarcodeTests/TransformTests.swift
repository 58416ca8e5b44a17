import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBarcode

/// The events of continuous sessions for `codes` at the given times.
func sessions(_ codes: [(String, Double)]) -> [Sample] {
    var s = ScanSessions(mode: .continuous, timeout: nil)
    var b = Batch()
    for (code, t) in codes { s.deliver(ScannedCode(raw: Array(code.utf8)), at: t, into: &b) }
    return b.samples
}

@Suite(.timeLimit(.minutes(20))) struct DedupTests {
    @Test func aRepeatWithinTheWindowDropsItsWholeSession() throws {
        let h = try TransformHarness(DedupTransform.self, config: "window: 2 s")
        let out = try h.push(sessions([("A", 0), ("A", 1), ("B", 1.5), ("A", 2.5), ("A", 5)]))
        // A at 1 repeats A at 0; A at 2.5 is 1.5 s after the repeat at 1, still a repeat.
        #expect(
            timeline(out) == [
                "scan.start#1@0", "scan.data#1@0 A", "scan.stop#1@0",
                "scan.start#3@1500", "scan.data#3@1500 B", "scan.stop#3@1500",
                "scan.start#5@5000", "scan.data#5@5000 A", "scan.stop#5@5000",
            ])
        #expect(sessionsAreWellFormed(out))
        _ = try h.finish()
        #expect(h.events.notices == ["ignored 2 repeated code(s) within 2.0 s"])
    }

    @Test func startsWaitForTheirOutcomeAcrossBatches() throws {
        let h = try TransformHarness(DedupTransform.self, config: "window: 10 s")
        var s = ScanSessions(mode: .triggered, timeout: 5)
        var b1 = Batch()
        var b2 = Batch()
        var b3 = Batch()
        s.begin(at: 0, into: &b1)
        s.deliver(ScannedCode(raw: Array("X".utf8)), at: 1, into: &b2)
        s.begin(at: 2, into: &b2)
        s.deliver(ScannedCode(raw: Array("X".utf8)), at: 3, into: &b3)
        #expect(try h.push(b1.samples).isEmpty, "held until its outcome")
        #expect(timeline(try h.push(b2.samples)) == ["scan.start#1@0", "scan.data#1@1000 X", "scan.stop#1@1000"])
        #expect(try h.push(b3.samples).isEmpty, "the repeat's session is gone")
    }
}

@Suite(.timeLimit(.minutes(20))) struct StepCardTests {
    @Test func aStepCardMarksTheStepInEverySink() throws {
        let log = file(
            "cards.jsonl",
            """
            {"timestamp": 0, "code": "4006381333931"}
            {"timestamp": 1, "code": "STEP:walk/return"}
            {"timestamp": 2, "code": "4006381333932"}
            """)
        let yaml = """
            name: cards
            clock: virtual
            steps: [{path: setup, at: 0}]
            sources: {scanner: {type: barcode.replay, path: "\(log)"}}
            transforms: {steps: {type: barcode.step, inputs: [scanner]}}
            sinks:
              direct: {type: collect, inputs: [steps]}
              other: {type: collect, inputs: [scanner]}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: BarcodePlugins.all)
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        for sink in ["direct", "other"] {
            let markers = (outcome.collected[sink] ?? []).filter { $0.kind == .marker }
            #expect(markers.map(\.stepPath) == ["setup", "walk/return", "walk/return"], "\(sink)")
            #expect(markers.dropFirst().first?.uptime == 1)
        }
        let data = outcome.data("direct").filter { $0.event == "scan.data" }
        #expect(data.map(\.stepPath) == ["setup", "walk/return", "walk/return"])
        #expect(data[1]["step"] == .string("walk/return"))
        #expect(outcome.events.contains(.stepChanged(path: "walk/return", uptime: 1)))
    }

    @Test func configuredCodesWithoutPrefix() throws {
        let h = try TransformHarness(
            StepTransform.self, config: "prefix: null\ncodes: [{code: \"12345\", step: calibrate}]")
        let out = try h.push(sessions([("12345", 3), ("STEP:x", 4)]))
        #expect(out.filter { $0["step"] != nil && $0["step"] != .null }.map { $0["step"] } == [.string("calibrate")])
        #expect(h.context.steps == [StepSpec(path: "calibrate", at: 3)])
    }
}
