import DAQCore
import DAQTesting
import Synchronization
import Testing

/// A source whose start completes on a timer of its own stage: the engine must wait for it
/// without holding that stage's queue, or the timer could not fire.
final class LateStartSource: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting("fail the start instead") var fail = false
    }
    static let typeName = "late"
    static let summary = "test source whose start completes on a timer"
    struct Refused: Error, CustomStringConvertible { var description: String { "the device refused" } }
    static let readBeforeStart = Mutex(false)
    private let fail: Bool
    private let started = StartedFlag()

    init(configuration: Configuration, context: PluginContext) throws { fail = configuration.fail }

    func start(context: StageContext) throws {
        let completion = context.completeStartLater(waitingAtMost: .seconds(60))
        let started = self.started
        let fail = self.fail
        context.after(.milliseconds(20)) {
            if fail { return completion.fail(Refused()) }
            started.value.withLock { $0 = true }
            completion.succeed()
        }
    }

    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        if !started.value.withLock({ $0 }) { Self.readBeforeStart.withLock { $0 = true } }
        batch.append(Sample(uptime: 0, fields: ["n": .int(1)]))
        return .finished
    }
}

/// Set on the stage's timer, read in `read`.
final class StartedFlag: Sendable {
    let value = Mutex(false)
}

@Suite("A start that completes later", .timeLimit(.minutes(20)))
struct LateStartTests {
    @Test func theRunWaitsForItWithoutHoldingTheStagesQueue() throws {
        let out = try PipelineHarness.run(
            yaml: """
                name: late
                sources:
                  dev: {type: late}
                sinks:
                  got: {type: collect, inputs: [dev]}
                """, plugins: [.source(LateStartSource.self)])
        #expect(out.result.state == .finished)
        #expect(out.data("got").count == 1)
        // The timer on the stage's own queue completed it: a start ended by its 60 s limit
        // instead would fail the run, or let it read before the start completed.
        #expect(!LateStartSource.readBeforeStart.withLock { $0 }, "read before its start completed")
    }

    @Test func aFailedCompletionFailsTheStartWithItsError() throws {
        #expect {
            _ = try PipelineHarness.run(
                yaml: """
                    name: late-fail
                    sources:
                      dev: {type: late, fail: true}
                    sinks:
                      got: {type: collect, inputs: [dev]}
                    """, plugins: [.source(LateStartSource.self)])
        } throws: { "\($0)".contains("the device refused") }
    }
}
