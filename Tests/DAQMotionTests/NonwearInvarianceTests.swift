import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// `motion.nonwear` gives the same rows whatever the batch boundaries and the run clock: steps
/// follow the samples' times, and rows are held and passed on by step, not by batch.
@Suite(.timeLimit(.minutes(20))) struct NonwearInvarianceTests {
    /// Twenty minutes at 10 Hz, judged in 2 min windows every 30 s: still for 5 min (found), for
    /// 100 s (shorter than a window: not found) and for the last 4 min (found at the end of input).
    static let wrist = Wrist(still: [200..<500, 700..<800, 960..<1_200], rate: 10)
    static let config = "window: 2m\nstep: 30s"

    @Test(arguments: [1, 7, 4096], ["flag", "drop"])
    func everyBatchSizeGivesTheSameRows(size: Int, mode: String) throws {
        let samples = Self.wrist.samples(seconds: 1_200)
        let config = Self.config + "\nmode: \(mode)"
        let whole = try nonwear(config, samples)
        let batched = try nonwear(config, samples, size: size)
        let spans = whole.compactMap(FoundSpan.init)
        try #require(spans.count == 2, "\(spans)")
        #expect(spans[0].start == 1_700_000_210 && spans[0].end == 1_700_000_480, "\(spans[0])")
        #expect(spans[1].start == 1_700_000_960 && abs(spans[1].end - 1_700_001_199.9) < 1e-6, "\(spans[1])")
        #expect(batched.count == whole.count)
        let differing = zip(whole, batched).enumerated().first { _, pair in
            let (a, b) = pair
            return a.kind != b.kind || a.timestamp != b.timestamp || a.uptime != b.uptime || a.fields != b.fields
        }
        #expect(differing == nil, "row \(differing?.offset ?? 0) differs: \(String(describing: differing?.element))")
    }

    /// The CSV recording of ``wrist`` in a pipeline: motion.replay → motion.nonwear → collect, on
    /// the virtual and the replay clock, with batches of 1, 7 and 4,096.
    @Test(arguments: ["flag", "drop"])
    func aPipelineGivesTheSameRowsAtEveryClockAndBatchSize(mode: String) throws {
        let dir = tempDirectory()
        try Self.wrist.csv(seconds: 1_200).write(toFile: dir + "/wrist.csv", atomically: true, encoding: .utf8)
        let yaml = """
            name: nonwear
            clock: virtual
            sources:
              accel: {type: motion.replay, path: "\(dir)/wrist.csv", time_unit: s}
            transforms:
              worn: {type: motion.nonwear, inputs: [accel], window: 2m, step: 30s, mode: \(mode)}
            sinks:
              out: {type: collect, inputs: [worn]}
            """
        try yaml.write(toFile: dir + "/nonwear.yaml", atomically: true, encoding: .utf8)
        // The comparison is only worth something when the spans are there.
        let once = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all, file: dir + "/nonwear.yaml")
        let spans = once.data("out").compactMap(FoundSpan.init)
        try #require(spans.count == 2, "\(once.result)")
        let differences = try ClockInvariance.differences(
            pipeline: dir + "/nonwear.yaml", plugins: MotionPlugins.all + [.collect], replaySpeed: 500)
        #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n"))")
    }
}
