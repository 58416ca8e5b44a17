import DAQCore
import DAQTesting
import Synchronization
import Testing

/// A sink whose finish completes on a timer of its own stage, as a network client's close does
/// on its event loop, and reports delivery only then.
final class LateEndSink: SinkPlugin {
    struct Configuration: PluginConfiguration {
        @Setting("how the end completes: succeed, fail or never") var outcome = "succeed"
        @Setting("the longest the stage waits, in ms") var limit = 60_000
    }
    static let typeName = "late-end"
    static let summary = "test sink whose finish completes on a timer"
    struct Refused: Error, CustomStringConvertible { var description: String { "the broker refused the close" } }
    private let outcome: String
    private let limit: Int
    private var written = 0
    /// Data only, so sent and delivered count the same samples.
    var sendsMarkers: Bool { false }

    init(configuration: Configuration, context: PluginContext) throws {
        outcome = configuration.outcome
        limit = configuration.limit
    }

    func write(_ batch: Batch, context: StageContext) throws {
        written += batch.samples.filter { $0.kind != .marker }.count
    }

    func finish(context: StageContext) throws {
        let end = context.completeEndLater(waitingAtMost: .milliseconds(Int64(limit)))
        let (outcome, written) = (self.outcome, self.written)
        // A timer of the stage's own: it fires only if the stage has not ended at `finish`.
        context.after(.milliseconds(20)) {
            switch outcome {
            case "fail": end.fail(Refused())
            case "never": break
            default:
                context.delivered(samples: written, bytes: written)
                end.succeed()
            }
        }
    }
}

/// A source whose stop completes on a timer of its own stage, and says so before it does.
final class LateStopSource: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting("samples") var count = 3
    }
    static let typeName = "late-stop"
    static let summary = "test source whose stop completes on a timer"
    private let count: Int
    private var next = 0

    init(configuration: Configuration, context: PluginContext) throws { count = configuration.count }

    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        let end = min(count, next + limit)
        for i in next..<end { batch.append(Sample(uptime: Double(i) / 100, fields: ["n": .int(Int64(i))])) }
        next = end
        return next == count ? .finished : .more
    }

    func stop(context: StageContext) {
        let end = context.completeEndLater(waitingAtMost: .seconds(60))
        context.after(.milliseconds(20)) {
            context.notice("closed")
            end.succeed()
        }
    }
}

@Suite("A stop or finish that completes later", .timeLimit(.minutes(20)))
struct LateEndTests {
    static let plugins: [PluginDescriptor] = [.sink(LateEndSink.self), .source(LateStopSource.self)]

    static func run(_ sink: String, clock: String = "virtual", batchSize: Int = 4096) throws -> PipelineHarness.Outcome
    {
        try PipelineHarness.run(
            yaml: """
                name: late-end
                clock: \(clock)
                speed: 100
                sources:
                  gen: {type: late-stop, count: 5}
                sinks:
                  out: {type: late-end, inputs: [gen], \(sink)}
                """, plugins: plugins, options: RunOptions(batchSize: batchSize, flushInterval: 0))
    }

    static func stage(_ name: String, _ out: PipelineHarness.Outcome) -> StageStatistics? {
        out.result.stages.first { $0.name == name }
    }

    /// What the sink reports on its way out is counted: the stage was still open.
    @Test func theStageStaysOpenUntilItCompletesAndCountsWhatItReports() throws {
        let out = try Self.run("outcome: succeed")
        #expect(out.result.state == .finished)
        let sink = try #require(Self.stage("out", out))
        #expect(sink.delivered == 5, "delivered reported after finish returned")
        #expect(sink.queued == 0)
        #expect(sink.state == .finished)
    }

    /// Small batches and the paced clocks end the source while the sink still has input queued:
    /// the end must wait for that input as well as for the plugin.
    @Test(arguments: ["virtual", "replay", "realtime"], [1, 7, 4096])
    func theSameCountsAtEveryClockAndBatchSize(clock: String, batchSize: Int) throws {
        let out = try Self.run("outcome: succeed", clock: clock, batchSize: batchSize)
        #expect(out.result.state == .finished)
        let sink = try #require(Self.stage("out", out))
        #expect(sink.delivered == 5)
        #expect(sink.queued == 0)
        #expect(Self.stage("gen", out)?.samplesOut == 5)
    }

    @Test func aFailedEndFailsTheStageWithItsError() throws {
        let out = try Self.run("outcome: fail")
        #expect(out.result.state == .failed)
        #expect(Self.stage("out", out)?.state == .failed)
        #expect(out.result.error?.message.contains("the broker refused the close") == true)
    }

    /// A plugin that never completes cannot hold the run: after its limit the stage ends, warned.
    @Test func anEndThatNeverCompletesEndsAtItsLimitWithAWarning() throws {
        let out = try Self.run("outcome: never, limit: 100")
        #expect(out.result.state == .finished)
        let sink = try #require(Self.stage("out", out))
        #expect(sink.errors == 1)
        #expect(sink.delivered == 0)
    }

    /// The source's notice from its timer comes before its stage ends.
    @Test func aSourceStopThatCompletesLaterEndsTheStageAfterIt() throws {
        let out = try Self.run("outcome: succeed")
        let notice = out.events.firstIndex {
            if case .notice(let component, let message) = $0 { return component == "gen" && message == "closed" }
            return false
        }
        let ended = out.events.firstIndex {
            if case .state(let stage, _, let state) = $0 { return stage == "gen" && state == .finished }
            return false
        }
        let n = try #require(notice, "the notice from the stop's timer")
        let e = try #require(ended, "the source's end")
        #expect(n < e)
        #expect(Self.stage("gen", out)?.samplesOut == 5)
    }
}
