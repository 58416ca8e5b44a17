import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// Non-wear against scikit-digital-health 0.17.18's `AccelThresholdWearDetection` (PyPI;
/// installed by scripts/test.sh) on the same CSV file.
///
/// Both apply van Hees' rule to 60 min windows started every 15 min from the first sample, with
/// SD under 13 mg and range under 150 mg (skdh's default range is 67 mg; GGIR's current 150 mg
/// is passed). They differ by design in two ways, which the recording and the comparison allow
/// for:
/// - skdh gives a window's verdict to its first 15 min only; GGIR's 2023 approach, ours, to every
///   step the window covers. So the spans start together and ours ends 45 min (window − step)
///   after skdh's.
/// - skdh then rescores: wear periods of up to 6 h between non-wear are turned into non-wear by
///   their length relative to the non-wear around them, and optionally at the start ("setup") and
///   ends ("shipping") of a recording. That needs hours of look-ahead, which a stage holding one
///   window does not have, so ours does not. The setup and shipping rules are turned off and the
///   wear periods here are over 6 h, so no rescoring applies.
@Suite(.timeLimit(.minutes(20))) struct NonwearCrossCheckTests {
    static let script = """
        import sys, numpy as np
        from skdh.preprocessing import AccelThresholdWearDetection
        d = np.loadtxt(sys.argv[1], delimiter=',', skiprows=1)
        t, a = d[:, 0], np.ascontiguousarray(d[:, 1:4])
        wear = AccelThresholdWearDetection(sd_crit=0.013, range_crit=0.150, apply_setup_criteria=False,
            shipping_criteria=False, window_length=60, window_skip=15).predict(time=t, accel=a, fs=5.0)['wear']
        for (_, stop), (start, _) in zip(wear[:-1], wear[1:]):
            print('%.3f,%.3f' % (t[stop], t[start]))
        """

    @Test func agreesWithScikitDigitalHealth() throws {
        // 16.5 h at 5 Hz: worn for 7 h 5 min, still for 2.5 h, worn for 7 h.
        let still = 25_500.0..<34_500.0
        let wrist = Wrist(still: [still], rate: 5)
        let path = tempDirectory() + "/wrist.csv"
        try wrist.csv(seconds: 16.5 * 3_600).write(toFile: path, atomically: true, encoding: .utf8)
        let theirs = try python(Self.script, [path]).split(separator: "\n").map {
            $0.split(separator: ",").compactMap { Double($0) }
        }
        let yaml = """
            name: skdh-check
            clock: virtual
            sources:
              accel: {type: motion.replay, path: "\(path)", time_unit: s}
            transforms:
              worn: {type: motion.nonwear, inputs: [accel], mode: drop}
            sinks:
              out: {type: collect, inputs: [worn]}
            """
        let ours = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all).data("out").compactMap(
            FoundSpan.init)
        try #require(theirs.count == 1 && theirs[0].count == 2 && ours.count == 1, "skdh \(theirs), ours \(ours)")
        let origin = 1_700_000_000.0
        let step = 900.0
        #expect(abs(ours[0].start - theirs[0][0]) < 1e-3, "ours \(ours[0]), skdh \(theirs[0])")
        #expect(abs(ours[0].end - (theirs[0][1] + 3_600 - step)) < 1e-3, "ours \(ours[0]), skdh \(theirs[0])")
        // Both find what was put in: the start to a step, the end to a step (ours) or a window (skdh's).
        #expect(abs(ours[0].start - (origin + still.lowerBound)) < step)
        #expect(abs(ours[0].end - (origin + still.upperBound)) < step)
        #expect(abs(theirs[0][1] - (origin + still.upperBound)) < 3_600)
        #expect(ours[0].samples == Int((ours[0].end - ours[0].start) * 5))
    }
}
