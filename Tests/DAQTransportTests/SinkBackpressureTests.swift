import DAQCore
import DAQTesting
import DAQTransport
import Dispatch
import Foundation
import Synchronization
import Testing

/// A broker that is away holds the pipeline back without holding a thread: the `mqtt` sink
/// refuses input while its queue is full and the stage is woken when messages settle; at the
/// end, the stage stays open for acknowledgements for at most `drain_timeout`.
@Suite("mqtt sink backpressure", .serialized, .timeLimit(.minutes(20)))
struct SinkBackpressureTests {
    /// A sink on `broker` with its own context, so the test sees each wake.
    final class Rig {
        let sink: MQTTSink
        let context: StageContext
        let wakes: DispatchSemaphore
        let delivered = Tally()

        init(_ broker: Mosquitto, extra: String = "") throws {
            let yaml =
                "url: \"\(broker.url)\"\ntopic: t/x\nqos: 1\nqueue: 3\nreconnect_delay: 0.05\n"
                + "max_reconnect_delay: 0.1\n\(extra)"
            let config = try PluginConfigLoader.decode(MQTTSink.Configuration.self, yaml: yaml)
            sink = try MQTTSink(
                configuration: config,
                context: PluginContext(componentName: "pub", pipelineName: "bp", baseDirectory: "", clock: .virtual))
            let wakes = DispatchSemaphore(value: 0)
            let delivered = self.delivered
            self.wakes = wakes
            context = StageContext.detached(
                name: "pub", kind: .sink, clock: RunClock(mode: .virtual),
                onEvent: { event in
                    if case .delivered(_, let samples, _) = event { delivered.count.withLock { $0 += samples } }
                }, onWake: { wakes.signal() })
            try sink.start(context: context)
            try context.awaitStart()
        }

        func write(_ values: [Double]) throws {
            let samples = values.map { Sample(uptime: $0, fields: ["v": .double($0)]) }
            try sink.write(Batch(stream: "gen", samples: samples), context: context)
        }

        /// Waits for wakes until `condition` holds, at most 20 s.
        func wait(until condition: () -> Bool) -> Bool {
            let deadline = DispatchTime.now() + 20
            while !condition() {
                if wakes.wait(timeout: deadline) == .timedOut { return condition() }
            }
            return true
        }
    }

    @Test func aFullQueueRefusesInputAndASettledMessageWakesTheStage() throws {
        let broker = try Mosquitto()
        try broker.start()
        let rig = try Rig(broker)
        let deferred = try #require(rig.sink as (any Sink) as? any DeferredWork, "the sink holds back by a wait")
        #expect(deferred.acceptsInput)
        broker.stop()
        // Three messages fill the queue of three while nobody acknowledges them; the write
        // returned, so no thread waits for room.
        try rig.write([1, 2, 3])
        #expect(!deferred.acceptsInput, "a full queue still takes input")
        try broker.start()
        #expect(rig.wait { deferred.acceptsInput }, "no wake once the broker acknowledged the queue")
        #expect(rig.wait { rig.delivered.count.withLock { $0 } == 3 })
        try rig.sink.finish(context: rig.context)
    }

    @Test func theEndWaitsForAcknowledgementsWithoutAThreadAndNoLongerThanTheDrainTimeout() throws {
        let broker = try Mosquitto()
        try broker.start()
        let rig = try Rig(broker, extra: "drain_timeout: 300ms\n")
        let deferred = try #require(rig.sink as (any Sink) as? any DeferredWork)
        broker.stop()
        try rig.write([1])
        #expect(!deferred.hasPendingWork, "pending work before the input ended")
        deferred.inputEnded()
        #expect(deferred.hasPendingWork, "the stage would end with a message unacknowledged")
        // The drain timer wakes the stage, which then ends.
        #expect(rig.wait { !deferred.hasPendingWork }, "the drain never timed out")
        try rig.sink.finish(context: rig.context)
    }
}

/// Samples reported delivered, from the client's event loop.
final class Tally: Sendable {
    let count = Mutex(0)
}
