import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// Epochs are the same whatever the batch boundaries and the run clock: an epoch that
/// straddles batches carries its sums across `process` calls.
@Suite(.timeLimit(.minutes(20))) struct EpochInvarianceTests {
    /// A moving wrist at 100 Hz, starting mid-epoch 30 s before Berlin's spring switch, with a
    /// stretch flagged non-wear.
    static let signal: [Sample] = accelerometer(from: 1_774_745_972.5, seconds: 61, axes: EpochInvarianceTests.moving) {
        i in
        i >= 1200 && i < 2500 ? ["nonwear": .bool(true)] : [:]
    }

    static func moving(_ t: Double) -> (Double, Double, Double) {
        (0.3 * sin(2 * .pi * 1.7 * t), 0.2 * cos(2 * .pi * 0.9 * t), 0.95 + 0.4 * sin(2 * .pi * 2.3 * t + 1))
    }

    /// Feeds `samples` in batches of `size`; returns everything that came out, the end included.
    static func run<T: TransformPlugin>(_ type: T.Type, _ config: String, _ samples: [Sample], size: Int) throws
        -> [Sample]
    {
        let h = try TransformHarness(type, config: config)
        var out: [Sample] = []
        var i = 0
        while i < samples.count {
            out += try h.push(Array(samples[i..<min(i + size, samples.count)]))
            i += size
        }
        return out + (try h.finish())
    }

    static let config = "epoch: 5s\ntime_zone: Europe/Berlin\nalso: [mad, anglez]"

    @Test(arguments: [1, 7, 4096])
    func everyBatchSizeGivesTheSameEpochs(size: Int) throws {
        let whole = try Self.run(EnmoTransform.self, Self.config, Self.signal, size: Self.signal.count)
        let batched = try Self.run(EnmoTransform.self, Self.config, Self.signal, size: size)
        // 61 s from 2.5 s into an epoch: 2.5 s of a first epoch, 11 whole ones, 3.5 s of a last.
        try #require(whole.count == 13)
        #expect(batched.count == whole.count)
        for (a, b) in zip(whole, batched) {
            #expect(a.timestamp == b.timestamp && a.uptime == b.uptime)
            #expect(a.fields == b.fields, "epoch at \(a.timestamp): exactly the same values")
        }
        #expect(whole.map { $0["samples"] } == [.int(250)] + Array(repeating: .int(500), count: 11) + [.int(350)])
        #expect(whole.filter { $0.number("wear") < 1 }.count == 4, "13 s of non-wear touch four epochs")
        #expect(whole.allSatisfy { $0.number("enmo_mg") > 0 && $0.number("mad_mg") > 0 })
    }

    /// The CSV recording of ``signal`` in a pipeline: motion.replay → motion.enmo → collect, on
    /// the virtual and the replay clock, with batches of 1, 7 and 4,096.
    @Test func aPipelineGivesTheSameEpochsAtEveryClockAndBatchSize() throws {
        let dir = tempDirectory()
        var csv = "timestamp,x,y,z,nonwear\n"
        for s in Self.signal {
            let flag = s["nonwear"] == .bool(true) ? "true" : "false"
            csv += "\(s.timestamp),\(s.number("x")),\(s.number("y")),\(s.number("z")),\(flag)\n"
        }
        try csv.write(toFile: dir + "/wrist.csv", atomically: true, encoding: .utf8)
        let yaml = """
            name: epochs
            clock: virtual
            sources:
              accel: {type: motion.replay, path: "\(dir)/wrist.csv", time_unit: s}
            transforms:
              epochs: {type: motion.enmo, inputs: [accel], epoch: 5s, time_zone: Europe/Berlin, also: [mad, anglez]}
            sinks:
              out: {type: collect, inputs: [epochs]}
            """
        try yaml.write(toFile: dir + "/epochs.yaml", atomically: true, encoding: .utf8)
        // The comparison is only worth something when the epochs are there.
        let once = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all, file: dir + "/epochs.yaml")
        try #require(once.data("out").count == 13, "\(once.result)")
        #expect(once.data("out").filter { $0.number("wear") < 1 }.count == 4, "the CSV's true/false flags count")
        let differences = try ClockInvariance.differences(
            pipeline: dir + "/epochs.yaml", plugins: MotionPlugins.all + [.collect], replaySpeed: 100)
        #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n"))")
    }
}
