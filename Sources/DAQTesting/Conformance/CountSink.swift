import DAQCore
import Synchronization

/// A sink that counts what reaches it instead of keeping it, so a million samples cost no
/// memory: `type: conformance.count`. The suite reads its counts after the run.
///
/// # Thread safety
/// The counts sit behind one `Mutex`; the engine calls `write` on the stage's queue.
final class CountSink: SinkPlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "conformance.count"
    static let summary = "Counts the samples it receives (DAQTesting conformance suite)."

    struct Counts: Sendable {
        var data = 0
        var markers = 0
        var first: [Sample] = []
    }

    /// How many data samples to keep, so a check can say what came out.
    private static let kept = 8
    private let counts = Mutex(Counts())

    init(configuration: Configuration, context: PluginContext) throws {}

    func write(_ batch: Batch, context: StageContext) throws {
        var data = 0
        for kind in batch.kinds where kind != .marker { data += 1 }
        let room = counts.withLock { Self.kept - $0.first.count }
        var sample: [Sample] = []
        for i in 0..<batch.count where sample.count < room && batch.kinds[i] != .marker { sample.append(batch[i]) }
        counts.withLock {
            $0.data += data
            $0.markers += batch.count - data
            $0.first.append(contentsOf: sample)
        }
    }

    /// What was received so far.
    var snapshot: Counts { counts.withLock { $0 } }
}
