import DAQCore
import DAQTesting
import Dispatch
import Synchronization

/// A sink that holds its first write until the test opens the gate: a "slow sink" whose
/// slowness the test controls exactly, with no sleeps.
final class GatedSink: SinkPlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "gated"
    static let summary = "test sink that waits for a gate"

    static let gates = Mutex<[String: DispatchSemaphore]>([:])
    let gate: DispatchSemaphore
    let received = Mutex<[Sample]>([])
    private var opened = false

    init(configuration: Configuration, context: PluginContext) throws {
        gate = GatedSink.gates.withLock { $0[context.pipelineName] } ?? DispatchSemaphore(value: 1)
    }

    func write(_ batch: Batch, context: StageContext) throws {
        // The start marker is written while the run starts; hold only data.
        if !opened, batch.kinds.contains(.data) {
            gate.wait()
            opened = true
        }
        received.withLock { $0.append(contentsOf: batch.samples.filter { $0.kind == .data }) }
    }
}

/// A transform that fails on the sample whose `seq` equals `fail_at`.
final class FailingTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {
        @Setting(required: "seq that fails") var failAt: Int
    }
    static let typeName = "failing"
    static let summary = "test transform that throws"
    struct Boom: Error, CustomStringConvertible { var description: String { "boom at seq" } }
    let failAt: Int64
    init(configuration: Configuration, context: PluginContext) throws { failAt = Int64(configuration.failAt) }
    func process(_ batch: inout Batch, context: StageContext) throws {
        if let c = batch.column("seq"), (0..<batch.count).contains(where: { c[$0].intValue == failAt }) { throw Boom() }
    }
}

/// Waits for the first event matching a condition, from any queue.
final class EventWaiter: PipelineObserver {
    private let condition: @Sendable (PipelineEvent) -> Bool
    private let semaphore = DispatchSemaphore(value: 0)
    private let fired = Mutex(false)

    init(_ condition: @escaping @Sendable (PipelineEvent) -> Bool) { self.condition = condition }

    func handle(_ event: PipelineEvent) {
        guard condition(event) else { return }
        let first = fired.withLock { f -> Bool in
            defer { f = true }
            return !f
        }
        if first { semaphore.signal() }
    }

    /// Blocks until the event came; false after `seconds` (a hang guard, not a timing assumption).
    func wait(seconds: Double = 30) -> Bool {
        semaphore.wait(timeout: .now() + seconds) == .success
    }
}

/// A source that emits `count` samples 10 ms apart, then stays idle: a device gone quiet.
final class QuietSource: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting(required: "samples before silence") var count: Int
    }
    static let typeName = "quiet"
    static let summary = "test source that goes silent"
    let count: Int
    var emitted = 0
    init(configuration: Configuration, context: PluginContext) throws { count = configuration.count }
    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        while emitted < count && batch.count < limit {
            let u = Double(emitted) / 100
            batch.append(Sample(timestamp: context.startDate + u, uptime: u, fields: ["v": .double(Double(emitted))]))
            emitted += 1
        }
        return emitted < count ? .more : .idle
    }
}
