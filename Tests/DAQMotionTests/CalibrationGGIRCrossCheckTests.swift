import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// motion.calibrate against scikit-digital-health 0.17.18's `CalibrateAccelerometer` (PyPI;
/// installed by scripts/test.sh), a port of GGIR's `g.calibrate`, on the same .cwa (read for
/// skdh by actfast, as the reading benchmarks do).
///
/// The methods differ by design: skdh weighs each window by 1 / its distance to the sphere
/// (capped at 100) and stops on the change of a weighted squared error, where actipy and this
/// plugin use a trimmed linear weight and the mean distance; it needs at least 12 hours of data;
/// and it writes the correction as (raw + d) × s, which is this plugin's offset d·s and gain s.
/// On a recording that fits the model both reach the device's own error, so offsets and gains
/// are compared to 2 mg (the bound), without the temperature term (skdh given none,
/// ours `temperature: ""`).
@Suite(.timeLimit(.minutes(20))) struct CalibrationGGIRCrossCheckTests {
    static let script = """
        import sys, numpy as np, actfast
        from skdh.preprocessing import CalibrateAccelerometer
        d = actfast.read(sys.argv[1])['timeseries']['high_frequency']
        t = np.asarray(d['datetime']).astype('int64') / 1e9
        a = np.asarray(d['acceleration'], dtype=float)
        r = CalibrateAccelerometer(min_hours=12).predict(time=t, accel=a, apply=False)
        for k in range(3):
            print('%.12f,%.12f' % (r['offset'][k] * r['scale'][k], r['scale'][k]))
        """

    @Test func agreesWithScikitDigitalHealthsGGIRPort() throws {
        // 12.1 hours at 12.5 Hz: the 26 orientations in turn, 30 s each, with seeded noise.
        var w = CWAWriter()
        w.device = .ax6
        w.rate = 12.5
        w.seconds = 12.1 * 3600
        let (offset, gain) = (Miscalibrated.offset, Miscalibrated.gain)
        w.counts = { n in
            let g = Miscalibrated.everyWay[(n / 375) % 26]
            func raw(_ k: Int, _ v: Double) -> Int {
                let read = (v - offset[k]) / gain[k] + 0.003 * (2 * Miscalibrated.unit(UInt64(n * 3 + k)) - 1)
                return Int((read * 4096).rounded())
            }
            return (raw(0, g.0), raw(1, g.1), raw(2, g.2))
        }
        let path = try w.file()
        let theirs = try python(Self.script, [path]).split(separator: "\n").map {
            $0.split(separator: ",").compactMap { Double($0) }
        }
        try #require(theirs.count == 3 && theirs.allSatisfy { $0.count == 2 }, "skdh: \(theirs)")
        let base = tempDirectory()
        let yaml = """
            name: cal
            clock: virtual
            sources:
              accel: {type: motion.replay, path: "\(path)"}
            transforms:
              cal: {type: motion.calibrate, inputs: [accel], temperature: ""}
              hours: {type: motion.enmo, inputs: [cal], epoch: 1h}
            sinks:
              log: {type: logger.csv, inputs: [hours], directory: "\(base)"}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all + SampleLoggerPlugins.all)
        #expect(outcome.result.state == .finished)
        let fit = try recordedFit(try manifest(under: base))
        #expect(fit["accepted"] == .bool(true), "\(fit)")
        let (ours, oursGain) = (fit.triple("offset"), fit.triple("gain"))
        for k in 0..<3 {
            #expect(abs(ours[k] - theirs[k][0]) < 0.002, "offset \(k): ours \(ours[k]) g, skdh \(theirs[k][0]) g")
            #expect(abs(oursGain[k] - theirs[k][1]) < 0.002, "gain \(k): ours \(oursGain[k]), skdh \(theirs[k][1])")
            // Both found the device's own error, not merely each other's.
            #expect(abs(theirs[k][0] - offset[k]) < 0.002, "skdh's offset \(k)")
        }
    }
}
