import DAQCore
import DAQTesting
import NIOCore
import Testing

@testable import DAQTransport

/// What the `mqtt` source declares against what it emits. Its fields are the sender's, known
/// only as messages bring them; it declares those it adds, and that the timestamps are the
/// sender's. A message goes through the source's own receiver, with no broker.
@Suite("mqtt source descriptor")
struct TransportDescriptorTests {
    static let context = PluginContext(componentName: "rx", pipelineName: "test", baseDirectory: "", clock: .virtual)

    func describe(_ extra: String = "") throws -> StreamDescriptor {
        let config = try PluginConfigLoader.decode(
            MQTTSource.Configuration.self,
            yaml: "url: mqtt://broker.invalid:1884\ntopics: [daq/#, fleet/+/accel]\n" + extra)
        // No broker answers at that name: describing connects to nothing.
        return try MQTTSource(configuration: config, context: Self.context).describe(context: Self.context)
    }

    @Test func declaresWhatItAddsAndTheSendersTime() throws {
        let d = try describe()
        #expect(d.fields == ["topic", "pipeline", "host"].map { FieldDescriptor($0, .string) })
        #expect(d.timeBase == .recorded && d.rate == .irregular)
        #expect(d.origin == StreamOrigin(plugin: "mqtt", host: "broker.invalid"))
        #expect(d.metadata["topics"] == "daq/#, fleet/+/accel")
        #expect(try describe("origin: false").fields.isEmpty)

        let receiver = MQTTReceiver(limit: 100, dedup: 100, onBadPayload: .skip)
        receiver.attach(StageContext.detached(name: "rx", kind: .source, clock: RunClock(mode: .virtual)))
        let sent = [
            Sample(timestamp: 1_795_000_000.5, uptime: 2, fields: ["x": 1.5, "n": 3, "blob": .bytes([1, 2])]),
            Sample(timestamp: 1_795_000_001, uptime: 3, kind: .event, fields: ["event": "gen.end"]),
        ]
        var got: [Sample] = []
        for (i, sample) in sent.enumerated() {
            var payload: [UInt8] = []
            SamplePayload.append(
                Batch(stream: "gen", samples: [sample]), row: 0, messageID: Array("edge@1:\(i)".utf8),
                origin: SamplePayload.origin(pipeline: "tx", host: "pi4"), to: &payload)
            let message = MQTTPublish(topic: "daq/tx/gen", payload: ByteBuffer(bytes: payload), qos: .atLeastOnce)
            #expect(receiver.mqttTake(message))
            // One message a batch: a field one message brings first joins a batch's columns at their end.
            var batch = Batch()
            try receiver.take(into: &batch, limit: 10)
            got += batch.samples
        }
        try #require(got.count == 2)
        for (s, original) in zip(got, sent) {
            // The declared fields take their values and come after the sender's, which come as they were sent.
            #expect(d.fields.allSatisfy { f in s[f.name].map(f.type.accepts) ?? false })
            #expect(Array(s.fields.keys.suffix(d.fields.count)) == d.fields.map(\.name))
            #expect(Array(s.fields.keys.dropLast(d.fields.count)) == original.fields.keys)
            #expect(s.timestamp == original.timestamp, "the sender's time, as the time base says")
        }
        #expect(got.first?["topic"] == .string("daq/tx/gen") && got.first?["host"] == .string("pi4"))
    }
}
