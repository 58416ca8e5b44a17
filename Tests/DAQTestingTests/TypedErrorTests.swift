import DAQCore
import DAQStandard
import DAQTesting
import Testing

/// A stage's error reaches the run's result and the failure event as a ``DAQError``: the code
/// and place it was thrown with, the component, and the text people have always read.
@Suite("Typed errors", .timeLimit(.minutes(20)))
struct TypedErrorTests {
    let plugins =
        StandardPlugins.all + [.transform(FailingTransform.self), .transform(LocatedFailureTransform.self)]

    func run(_ transform: String) throws -> PipelineHarness.Outcome {
        try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {gen: {type: generator, count: 500}}
                transforms: {bad: {\(transform), inputs: [gen]}}
                sinks: {out: {type: collect, inputs: [bad]}}
                """, plugins: plugins, options: RunOptions(batchSize: 100, flushInterval: 0))
    }

    func failedEvents(_ out: PipelineHarness.Outcome) -> [DAQError] {
        out.events.compactMap { if case .failed("bad", let e) = $0 { e } else { nil } }
    }

    @Test func aLocatedErrorKeepsItsCodeAndPlaceAndGainsTheComponent() throws {
        let out = try run("type: located_failure, fail_at: 250, as: daq")
        #expect(out.result.state == .failed)
        let error = try #require(out.result.error)
        #expect(error.code == .badInput)
        #expect(error.component == "bad")
        #expect(error.location == DAQError.Location(file: "readings.csv", line: 7, column: 3))
        #expect(error.location?.description == "readings.csv:7:3")
        #expect(error.message == LocatedFailureTransform.located.message)
        #expect(failedEvents(out) == [error], "the failure event carries the same error")
        #expect(out.data("out").count == 200, "what came before the bad batch is not lost")
    }

    @Test func aConvertibleErrorBringsItsOwnCodeAndByteOffset() throws {
        let out = try run("type: located_failure, fail_at: 250, as: convertible")
        let error = try #require(out.result.error)
        #expect(error.code == MeterFault.code)
        #expect(error.component == "bad")
        #expect(error.location == DAQError.Location(file: "meter.bin", byteOffset: 4096))
        #expect(error.location?.description == "meter.bin at byte 4096")
        #expect(error.message == "meter.bin at byte 4096: checksum mismatch")
        #expect((error.underlying as? MeterFault)?.offset == 4096)
    }

    @Test func anyOtherErrorIsWrappedWithItsTextUnchanged() throws {
        let out = try run("type: failing, fail_at: 250")
        let error = try #require(out.result.error)
        #expect(error.code == .pluginFailed)
        #expect(error.component == "bad")
        #expect(error.location == nil)
        #expect(error.message == "boom at seq")
        #expect("\(error)" == "boom at seq", "interpolated as the stage's error always printed")
        #expect(error.underlying is FailingTransform.Boom)
        #expect(failedEvents(out).map(\.message) == ["boom at seq"])
    }

    @Test @available(*, deprecated) func theDeprecatedFailureLineReadsAsBefore() throws {
        let out = try run("type: failing, fail_at: 250")
        #expect(out.result.failure == "bad: boom at seq")
        let located = try run("type: located_failure, fail_at: 250, as: daq")
        #expect(located.result.failure == "bad: readings.csv:7:3: expected a number, found 'x'")
    }
}
