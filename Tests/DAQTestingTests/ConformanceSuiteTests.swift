import DAQCore
import DAQStandard
import DAQTesting
import Testing

/// The conformance suite itself: a healthy plugin passes every check, and each check fails for
/// the flaw it is there to catch, so none of them can pass by construction.
@Suite("Conformance suite", .timeLimit(.minutes(20)))
struct ConformanceSuiteTests {
    func verdict(_ report: ConformanceReport, _ check: ConformanceCheck) -> ConformanceResult.Verdict? {
        report.results.first { $0.check == check }?.verdict
    }

    func failed(_ report: ConformanceReport, _ check: ConformanceCheck) -> Bool {
        if case .failed = verdict(report, check) { return true }
        return false
    }

    @Test func aHealthyTransformPassesEveryCheckInOneLine() throws {
        let gate = "healthy-\(UInt64.random(in: 0...UInt64.max))"
        let report = try PluginConformance.verify(
            .transform(GatedTransform.self),
            ConformanceSpec(
                failure: nil,
                stall: StallCase(
                    config: "gate: \(gate)", signal: .backpressure, release: { TestGate.named(gate).open() }),
                reasons: [.errorsAreEvents: "it cannot fail"]))
        #expect(report.skipped.map(\.check) == [.errorsAreEvents])
    }

    @Test func aTransformBlockingItsQueueIsCaught() throws {
        let gate = "blocking-\(UInt64.random(in: 0...UInt64.max))"
        // A short deadline: blocked copies can never let the heartbeat through before the gate
        // opens, and the gate opens only after the check has given up waiting.
        let report = PluginConformance.check(
            .transform(GatedTransform.self),
            ConformanceSpec(
                stall: StallCase(
                    config: "gate: \(gate)\nblocking: true", signal: .backpressure,
                    release: { TestGate.named(gate).open() }),
                deadline: 2))
        #expect(failed(report, .neverBlocks), "\(report)")
        #expect(report.failures.map(\.check) == [.neverBlocks], "\(report)")
    }

    @Test func aTransformThatDoesNotFlushFailsTheDrainCheck() {
        let report = PluginConformance.check(
            .transform(FlawedTransform.self), ConformanceSpec(config: "flaw: keeps_the_last_batch"))
        #expect(failed(report, .drainsOnStop), "\(report)")
        #expect(failed(report, .startsAndStops), "\(report)")
    }

    @Test func aTransformThatSwallowsItsErrorFailsTheErrorCheck() {
        let spec = { (flaw: String) in
            ConformanceSpec(
                config: "flaw: \(flaw)",
                failure: FailureCase(config: "flaw: \(flaw)\nfail: true", report: .fatal, messageContains: "bad sample")
            )
        }
        let swallowing = PluginConformance.check(.transform(FlawedTransform.self), spec("swallows_errors"))
        #expect(failed(swallowing, .errorsAreEvents), "\(swallowing)")
        let healthy = PluginConformance.check(.transform(FlawedTransform.self), spec("none"))
        #expect(verdict(healthy, .errorsAreEvents) == .passed, "\(healthy)")
    }

    @Test func aTransformRefusingHugeBatchesFailsTheHugeBatchCheck() {
        let report = PluginConformance.check(
            .transform(FlawedTransform.self), ConformanceSpec(config: "flaw: refuses_huge_batches"))
        #expect(failed(report, .hugeBatch), "\(report)")
        #expect(report.failures.count == 1, "\(report)")
    }

    @Test func aTransformInventingSamplesFailsTheEmptyBatchCheck() {
        let report = PluginConformance.check(
            .transform(FlawedTransform.self), ConformanceSpec(config: "flaw: invents_samples"))
        #expect(failed(report, .emptyBatch), "\(report)")
        #expect(report.failures.count == 1, "\(report)")
    }

    @Test func theTypedOneLinersCheckSourcesAndSinks() throws {
        try PluginConformance.verify(.collect, ConformanceSpec(drain: .consumed, hugeCount: 100_000))
        try PluginConformance.verify(GeneratorSource.self, config: "count: 500", expecting: 500)
    }
}
