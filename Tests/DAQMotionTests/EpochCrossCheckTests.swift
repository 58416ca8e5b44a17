import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// 5 s ENMO, MAD and anglez against scikit-digital-health 0.17.18 (`skdh.activity.metrics`,
/// PyPI; installed by scripts/test.sh), on the same samples.
///
/// By design skdh cuts windows by sample count (`wlen`) from the first sample, not by clock
/// time, so the input here starts on an epoch boundary at an even 100 Hz: then its windows of
/// 500 samples are exactly our 5 s epochs and every value is compared, to 1e-6 mg (the issue
/// asks 1 mg). skdh's anglez is atan(z / √(x² + y²)), as ours; its ENMO with `trim_zero=False`
/// is ours with `truncate: false`.
@Suite(.timeLimit(.minutes(20))) struct EpochCrossCheckTests {
    static let script = """
        import sys, numpy as np
        from skdh.activity.metrics import metric_enmo, metric_mad, metric_anglez
        a = np.loadtxt(sys.argv[1], delimiter=',')
        for e, k, m, z in zip(metric_enmo(a, wlen=500), metric_enmo(a, wlen=500, trim_zero=False),
                              metric_mad(a, wlen=500), metric_anglez(a, wlen=500)):
            print('%.12f,%.12f,%.12f,%.12f' % (e * 1000, k * 1000, m * 1000, z))
        """

    /// Five minutes of a wrist at 100 Hz: still, slow turning, walking, a burst of running,
    /// with seeded noise; the device lies tilted now and then, so anglez varies.
    static func wrist() -> [(Double, Double, Double)] {
        var seed: UInt64 = 0x5EED
        func noise() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53) - 0.5
        }
        return (0..<30_000).map { i in
            let t = Double(i) / 100
            let phase = Int(t / 60)
            let tilt = 0.6 * sin(2 * .pi * t / 97)
            var (x, y, z) = (sin(tilt), 0.0, cos(tilt))
            switch phase {
            case 1: (x, y) = (x + 0.1 * sin(2 * .pi * 0.3 * t), y + 0.05 * cos(2 * .pi * 0.2 * t))
            case 2, 3: (x, z) = (x + 0.35 * sin(2 * .pi * 1.9 * t), z + 0.25 * sin(2 * .pi * 3.8 * t))
            case 4: (x, y, z) = (x + 0.9 * sin(2 * .pi * 2.7 * t), y + 0.4 * noise(), z + 1.1 * sin(2 * .pi * 5.4 * t))
            default: break
            }
            return (x + 0.01 * noise(), y + 0.01 * noise(), z + 0.01 * noise())
        }
    }

    @Test func agreesWithScikitDigitalHealth() throws {
        let axes = Self.wrist()
        let path = tempDirectory() + "/wrist.csv"
        // %.17g-like text: both sides read the same doubles.
        try axes.map { "\($0.0),\($0.1),\($0.2)" }.joined(separator: "\n").write(
            toFile: path, atomically: true, encoding: .utf8)
        let theirs = try python(Self.script, [path]).split(separator: "\n").map {
            $0.split(separator: ",").compactMap { Double($0) }
        }
        let samples = axes.enumerated().map { i, a in
            Sample(
                timestamp: 1_700_000_000 + Double(i) / 100, uptime: Double(i) / 100,
                fields: ["x": .double(a.0), "y": .double(a.1), "z": .double(a.2)])
        }
        let ours = try epochs(EnmoTransform.self, "epoch: 5s\nalso: [mad, anglez]", samples)
        let kept = try epochs(EnmoTransform.self, "epoch: 5s\ntruncate: false", samples)
        try #require(theirs.count == 60 && ours.count == 60 && kept.count == 60, "\(theirs.count) windows from skdh")
        var worst = [0.0, 0.0, 0.0, 0.0]
        for (i, row) in theirs.enumerated() {
            try #require(row.count == 4)
            let mine = [
                ours[i].number("enmo_mg"), kept[i].number("enmo_mg"), ours[i].number("mad_mg"),
                ours[i].number("anglez_deg"),
            ]
            for k in 0..<4 { worst[k] = max(worst[k], abs(mine[k] - row[k])) }
        }
        #expect(
            worst.allSatisfy { $0 < 1e-6 }, "largest differences (ENMO, ENMO untruncated, MAD mg; anglez °): \(worst)")
        // The comparison means something only if the signal moves.
        let enmo = ours.map { $0.number("enmo_mg") }
        #expect(enmo.min()! < 5 && enmo.max()! > 300, "\(enmo)")
        #expect(kept.contains { $0.number("enmo_mg") < 0 }, "some untruncated ENMO is negative")
    }

    /// actipy 3.8.3 (PyPI, with Java) has no ENMO function of its own: it reads and prepares the
    /// signal, and the `accelerometer` package averages ENMO per epoch with pandas. So this reads
    /// one .cwa with actipy (its filter, calibration, non-wear and resampling off, so the samples
    /// are the file's), averages max(0, |a| − 1) per 5 s with pandas' `resample`, which like
    /// ours aligns epochs to midnight, and compares each epoch's start, count and ENMO (to 1 mg)
    /// with motion.replay → motion.enmo on the same file.
    static let actipyScript = """
        import sys, numpy as np, actipy
        data, info = actipy.read_device(sys.argv[1], lowpass_hz=None, calibrate_gravity=False,
                                        detect_nonwear=False, resample_hz=None, verbose=False)
        enmo = (np.sqrt((data[['x', 'y', 'z']] ** 2).sum(axis=1)) - 1).clip(lower=0) * 1000
        for t, row in enmo.resample('5s').agg(['mean', 'count']).iterrows():
            print('%.3f,%.9f,%d' % (t.value / 1e9, row['mean'], row['count']))
        """

    @Test func agreesWithActipyOnADeviceFile() throws {
        var w = CWAWriter()
        w.seconds = 62
        let path = tempDirectory() + "/wrist.cwa"
        try w.write(to: path)
        let theirs = try python(Self.actipyScript, [path]).split(separator: "\n").map {
            $0.split(separator: ",").compactMap { Double($0) }
        }
        let yaml = """
            name: actipy-check
            clock: virtual
            sources:
              accel: {type: motion.replay, path: "\(path)"}
            transforms:
              epochs: {type: motion.enmo, inputs: [accel], epoch: 5s}
            sinks:
              out: {type: collect, inputs: [epochs]}
            """
        let ours = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all).data("out")
        // 62 s from 0.25 s past a boundary: 13 epochs, the first and last partial.
        try #require(ours.count == 13 && theirs.count == ours.count, "\(theirs.count) epochs from actipy")
        for (e, row) in zip(ours, theirs) {
            try #require(row.count == 3)
            #expect(abs(e.timestamp - row[0]) < 1e-3, "epoch start \(e.timestamp), actipy \(row[0])")
            #expect(e["samples"]?.intValue == Int64(row[2]), "samples in the epoch at \(e.timestamp)")
            #expect(abs(e.number("enmo_mg") - row[1]) < 1, "ENMO \(e.number("enmo_mg")) mg, actipy \(row[1]) mg")
        }
        #expect(ours.contains { $0.number("enmo_mg") > 100 }, "the signal moves")
    }
}
