import DAQCore
import DAQStandard
import DAQTesting
import Synchronization
import Testing

/// A transform that counts its `finish` calls and holds every sample until then.
final class HoldingTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "holding"
    static let summary = "test transform that holds everything until finish"
    static let finishes = Mutex<[String: Int]>([:])
    private var held = Batch()
    private let pipeline: String

    init(configuration: Configuration, context: PluginContext) throws { pipeline = context.pipelineName }

    func process(_ batch: inout Batch, context: StageContext) throws {
        held.append(contentsOf: batch)
        batch = Batch()
    }

    func finish(context: StageContext) throws -> Batch {
        Self.finishes.withLock { $0[pipeline, default: 0] += 1 }
        return held
    }
}

@Suite("A cancelled run", .timeLimit(.minutes(20)))
struct CancelFinishTests {
    /// Regression (found by the conformance suite's cancel after the non-blocking check): a
    /// cancelled run never finished its transforms, so infomanager.resolve never shut its HTTP
    /// client down (a crash in debug builds) and an exec transform's program was left running.
    @Test func finishesTransformsAndDiscardsWhatTheyHeld() throws {
        let name = "cancel-finish-\(UInt64.random(in: 0...UInt64.max))"
        let out = try PipelineHarness.run(
            yaml: """
                name: \(name)
                clock: virtual
                sources: {gen: {type: generator, rate: 1000}}
                transforms: {hold: {type: holding, inputs: [gen]}}
                sinks: {out: {type: collect, inputs: [hold]}}
                """, plugins: StandardPlugins.all + [.transform(HoldingTransform.self)], control: { $0.cancel() })
        #expect(out.result.state == .cancelled)
        #expect(HoldingTransform.finishes.withLock { $0[name] } == 1)
        #expect(out.data("out").isEmpty, "a cancelled run discards what transforms held")
    }
}
