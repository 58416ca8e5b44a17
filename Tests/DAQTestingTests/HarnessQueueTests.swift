import DAQCore
import DAQTesting
import Synchronization
import Testing

/// For each call a harness makes into a probe, whether it ran on the stage's queue, where the
/// plugin's timers' and watches' handlers run.
final class CallLog: Sendable {
    private let calls = Mutex<[String]>([])
    var all: [String] { calls.withLock { $0 } }

    func note(_ call: String, _ context: StageContext) {
        calls.withLock { $0.append("\(call) \(context.isOnStageQueue ? "on" : "off") the stage's queue") }
    }
}

final class TransformProbe: Transform {
    let log = CallLog()
    func start(context: StageContext) throws { log.note("start", context) }
    func process(_ batch: inout Batch, context: StageContext) throws { log.note("process", context) }
    func finish(context: StageContext) throws -> Batch {
        log.note("finish", context)
        return Batch()
    }
}

final class SourceProbe: Source {
    let log = CallLog()
    func start(context: StageContext) throws { log.note("start", context) }
    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        log.note("read", context)
        return .finished
    }
    func stop(context: StageContext) { log.note("stop", context) }
}

final class SinkProbe: Sink {
    let log = CallLog()
    func start(context: StageContext) throws { log.note("start", context) }
    func write(_ batch: Batch, context: StageContext) throws { log.note("write", context) }
    func finish(context: StageContext) throws { log.note("finish", context) }
}

/// A harness calls its plugin on the stage's queue, as a pipeline does: called from the test's
/// thread, `exec`'s `finish` ended its program while the program's pipe watches, woken by its
/// death, read the same pipes and dropped the same watches on the queue, unsynchronised.
@Suite("harness queue", .timeLimit(.minutes(20)))
struct HarnessQueueTests {
    static let sample = Sample(uptime: 0, fields: ["v": 1.0])

    @Test func aTransformHarnessCallsItsPluginOnTheStagesQueue() throws {
        let probe = TransformProbe()
        let h = try TransformHarness(probe)
        _ = try h.push([Self.sample])
        _ = try h.finish()
        #expect(probe.log.all == ["start", "process", "finish"].map { "\($0) on the stage's queue" })
    }

    @Test func aSourceHarnessCallsItsPluginOnTheStagesQueue() throws {
        let probe = SourceProbe()
        let h = try SourceHarness(probe)
        _ = try h.read()
        _ = try h.read(until: { _ in false })
        h.stop()
        #expect(
            probe.log.all == ["start", "read", "read", "stop"].map { "\($0) on the stage's queue" })
    }

    @Test func aSinkHarnessCallsItsPluginOnTheStagesQueue() throws {
        let probe = SinkProbe()
        let h = try SinkHarness(probe)
        try h.write([Self.sample])
        try h.finish()
        #expect(probe.log.all == ["start", "write", "finish"].map { "\($0) on the stage's queue" })
    }

    @Test func theStagesQueueIsNotTheCallersOutsideIt() throws {
        let context = StageContext.detached(name: "probe", kind: .transform, clock: RunClock(mode: .virtual))
        #expect(!context.isOnStageQueue)
        #expect(context.onStageQueue { context.onStageQueue { context.isOnStageQueue } })
    }
}
