import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// motion.calibrate against actipy 3.8.3 (PyPI, with Java; installed by scripts/test.sh), whose
/// `calibrate_gravity` is the `accelerometer` package's van Hees fit: the same .cwa is read by
/// each, and the coefficients, still-window count and errors are compared.
///
/// What differs by design: actipy regresses on the raw temperature when the data has one, and
/// our fit centres it on the still windows' mean, so the offsets are equal only without a
/// temperature term; actipy's default stillness limit is 15 mg, GGIR's and ours 13 mg. So both
/// are run without temperature (actipy: the column dropped; ours: `temperature: ""`) and with
/// 13 mg, and then everything is compared: offsets and gains to 2 mg (the bound).
@Suite(.timeLimit(.minutes(20))) struct CalibrationCrossCheckTests {
    static let script = """
        import sys, actipy
        from actipy import processing as P
        data, _ = actipy.read_device(sys.argv[1], lowpass_hz=None, calibrate_gravity=False,
                                     detect_nonwear=False, resample_hz=None, verbose=False)
        data = data.drop(columns=[c for c in data.columns if c not in ('x', 'y', 'z')])
        _, c = P.calibrate_gravity(data, stdtol=0.013, calib_min_samples=50, return_coeffs=True)
        print('%d,%d,%.9f,%.9f' % (c['CalibOK'], c['CalibNumSamples'], c['CalibErrorBefore(mg)'],
                                    c['CalibErrorAfter(mg)']))
        for a in 'xyz':
            print('%.12f,%.12f' % (c['Calib%sIntercept' % a], c['Calib%sSlope' % a]))
        """

    @Test func agreesWithActipy() throws {
        // Orientations and moves between them: 26 still poses of 30 s, each entered with 3 s of
        // turning, so not every window is still.
        var w = Miscalibrated.writer(Miscalibrated.everyWay, hold: 33)
        let still = w.counts
        w.counts = { n in
            var c = still(n)
            if n % 3300 < 300 {
                let t = Double(n % 3300) / 100
                c.x += Int(600 * sin(2 * .pi * 1.3 * t))
                c.y += Int(400 * cos(2 * .pi * 0.7 * t))
            }
            return c
        }
        let path = try w.file()
        let lines = try python(Self.script, [path]).split(separator: "\n").map {
            $0.split(separator: ",").compactMap { Double($0) }
        }
        try #require(lines.count == 4 && lines[0].count == 4 && lines[1...].allSatisfy { $0.count == 2 }, "\(lines)")
        let base = tempDirectory()
        let yaml = """
            name: cal
            clock: virtual
            sources:
              accel: {type: motion.replay, path: "\(path)"}
            transforms:
              cal: {type: motion.calibrate, inputs: [accel], temperature: ""}
            sinks:
              log: {type: logger.csv, inputs: [cal], directory: "\(base)"}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all + SampleLoggerPlugins.all)
        #expect(outcome.result.state == .finished)
        let fit = try recordedFit(try manifest(under: base))
        #expect(lines[0][0] == 1 && fit["accepted"] == .bool(true), "actipy: \(lines[0]), ours: \(fit)")
        #expect(
            fit["still_windows"]?.intValue == Int64(lines[0][1]), "still windows: ours \(fit), actipy \(lines[0][1])")
        #expect(abs((fit["error_before_mg"]?.doubleValue ?? .nan) - lines[0][2]) < 0.01)
        #expect(abs((fit["error_after_mg"]?.doubleValue ?? .nan) - lines[0][3]) < 0.01)
        let (offset, gain) = (fit.triple("offset"), fit.triple("gain"))
        for k in 0..<3 {
            #expect(
                abs(offset[k] - lines[k + 1][0]) < 0.002, "offset \(k): ours \(offset[k]), actipy \(lines[k + 1][0])")
            #expect(abs(gain[k] - lines[k + 1][1]) < 0.002, "gain \(k): ours \(gain[k]), actipy \(lines[k + 1][1])")
            // Both found the device's own error, not merely each other's.
            #expect(abs(offset[k] - Miscalibrated.offset[k]) < 0.001)
        }
        #expect(lines[0][1] < 78, "the turns make some windows not still")
    }
}
