import DAQCore
import DAQMotion
import DAQTesting
import Testing

/// An event passed through an epoch transform between epochs (motion.nonwear's span event does
/// this in pipelines/activity-summary.yaml) must leave every column one value per sample, or a
/// logger reading the batch indexes past a column's end.
@Suite(.timeLimit(.minutes(20))) struct EpochEventColumnsTests {
    @Test func epochsAfterAnEventKeepEveryColumnAsLongAsTheBatch() throws {
        var samples = accelerometer(seconds: 12) { _ in (0, 0, 1.2) }
        let event = Sample(
            timestamp: samples[600].timestamp, uptime: samples[600].uptime, kind: .event,
            fields: ["event": .string("motion.nonwear"), "start": .double(1), "end": .double(2), "samples": .int(9)])
        samples.insert(event, at: 600)
        let h = try TransformHarness(EnmoTransform.self, config: "also: [mad]")
        let out = try h.push(Batch(samples: samples))
        #expect(out.kinds == [.data, .event, .data], "\(out.kinds)")
        for column in out.columns {
            #expect(column.count == out.count, "\(column.name): \(column.count) of \(out.count)")
        }
        let rows = out.samples
        #expect(rows[1]["event"] == .string("motion.nonwear"))
        #expect(rows[2]["event"] == nil && rows[2]["start"] == nil, "the epoch after it has no event fields")
        #expect(rows[2]["samples"] == .int(500))
    }
}
