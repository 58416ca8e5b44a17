import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// motion.calibrate on recordings with a known miscalibration: the fit recovers it, is recorded
/// in the manifest and reused from there, and is refused when the still windows cannot support it.
@Suite(.timeLimit(.minutes(20))) struct CalibrationTests {
    static let plugins = MotionPlugins.all + SampleLoggerPlugins.all

    /// replay → cal (with `calibration` and `extra` keys) → `then` (if any) → out; and a CSV log
    /// of cal under `log`, so the run has a directory and a manifest.
    static func yaml(
        _ path: String, calibration: String = "auto", extra: String = "", then: String? = nil,
        log: String? = nil, clock: String = "virtual"
    ) -> String {
        var text = """
            name: cal
            clock: \(clock)
            speed: 5000
            sources:
              accel: {type: motion.replay, path: "\(path)"}
            transforms:
              cal: {type: motion.calibrate, inputs: [accel], calibration: \(calibration)\(extra)}

            """
        if let then { text += "  next: {\(then), inputs: [cal]}\n" }
        text += "sinks:\n  out: {type: collect, inputs: [\(then == nil ? "cal" : "next")]}\n"
        if let log { text += "  log: {type: logger.csv, inputs: [cal], directory: \"\(log)\"}\n" }
        return text
    }

    /// |a| of every data sample.
    static func magnitudes(_ samples: [Sample]) -> [Double] {
        samples.map {
            ($0.number("x") * $0.number("x") + $0.number("y") * $0.number("y") + $0.number("z") * $0.number("z"))
                .squareRoot()
        }
    }

    @Test func recoversAKnownOffsetAndGainTo1mgAnd0point1Percent() throws {
        let path = try Miscalibrated.writer(Miscalibrated.everyWay).file()
        let base = tempDirectory()
        let outcome = try PipelineHarness.run(yaml: Self.yaml(path, log: base), plugins: Self.plugins)
        #expect(outcome.result.state == .finished, "\(outcome.result)")
        let fit = try recordedFit(try manifest(under: base))
        #expect(fit["accepted"] == .bool(true), "\(fit)")
        let (offset, gain) = (fit.triple("offset"), fit.triple("gain"))
        for k in 0..<3 {
            #expect(abs(offset[k] - Miscalibrated.offset[k]) < 0.001, "offset of axis \(k): \(offset[k]) g")
            #expect(abs(gain[k] / Miscalibrated.gain[k] - 1) < 0.001, "gain of axis \(k): \(gain[k])")
        }
        // 26 orientations of 30 s: 78 windows of 10 s. The reader's sample times carry the
        // sectors' 1/32768 s stamps, so a window edge can fall a sample off a turn: that window
        // is not still.
        let still = fit["still_windows"]?.intValue ?? 0
        #expect(still >= 50 && still <= 78, "\(still) still windows")
        #expect((fit["error_before_mg"]?.doubleValue ?? 0) > 10, "the device was off by more than 10 mg")
        #expect((fit["error_after_mg"]?.doubleValue ?? 99) < 1, "\(fit)")
        #expect(
            outcome.events.notices.contains {
                $0.contains("calibration fitted on \(still) still windows") && $0.contains("; accepted (fitted)")
            }, "\(outcome.events.notices)")
        // The samples themselves come out corrected: a still device measures 1 g.
        let a = Self.magnitudes(outcome.data("out"))
        try #require(a.count == 78_000)
        #expect(abs(a.reduce(0, +) / Double(a.count) - 1) < 0.001)
    }

    @Test func aStillCalibratedDeviceHasAnENMOOf0() throws {
        let path = try Miscalibrated.writer(Miscalibrated.everyWay, noise: 0).file()
        let calibrated = try PipelineHarness.run(
            yaml: Self.yaml(path, then: "type: motion.enmo, epoch: 5s"), plugins: Self.plugins
        ).data("out")
        let raw = try PipelineHarness.run(
            yaml: Self.yaml(path, calibration: "off", then: "type: motion.enmo, epoch: 5s"), plugins: Self.plugins
        ).data("out")
        try #require(calibrated.count == 157 && raw.count == calibrated.count, "\(calibrated.count) epochs")
        let enmo = calibrated.map { $0.number("enmo_mg") }
        #expect(enmo.allSatisfy { $0 < 1 }, "largest ENMO \(enmo.max()!) mg")
        #expect(raw.map { $0.number("enmo_mg") }.max()! > 10, "uncalibrated, the still device seems to move")
    }

    @Test func tooFewOrientationsLeaveTheSamplesAsTheyAreAndSaySo() throws {
        let path = try Miscalibrated.writer(Miscalibrated.flat, hold: 300).file()
        let base = tempDirectory()
        let outcome = try PipelineHarness.run(yaml: Self.yaml(path, log: base), plugins: Self.plugins)
        #expect(outcome.result.state == .finished)
        let fit = try recordedFit(try manifest(under: base))
        #expect(fit["accepted"] == .bool(false))
        // 60 windows of 10 s; the one that spans the turn over may not be still.
        #expect([59, 60].contains(fit["still_windows"]?.intValue ?? 0), "\(fit)")
        #expect(fit["reason"]?.stringValue?.contains("orientations") == true, "\(fit)")
        #expect(
            outcome.events.notices.contains { $0.contains("not accepted") && $0.contains("samples pass unchanged") },
            "\(outcome.events.notices)")
        let raw = try PipelineHarness.run(yaml: Self.yaml(path, calibration: "off"), plugins: Self.plugins)
        let (a, b) = (outcome.data("out"), raw.data("out"))
        try #require(a.count == 60_000 && b.count == a.count)
        #expect(zip(a, b).allSatisfy { $0.fields == $1.fields && $0.timestamp == $1.timestamp })
    }

    @Test func givenCoefficientsAreApplied() throws {
        let path = try Miscalibrated.writer(Miscalibrated.everyWay, hold: 10).file()
        let given = "{offset: [0.031, -0.022, 0.017], gain: [1.021, 0.984, 1.012]}"
        let base = tempDirectory()
        let outcome = try PipelineHarness.run(
            yaml: Self.yaml(path, calibration: given, log: base), plugins: Self.plugins)
        let a = Self.magnitudes(outcome.data("out"))
        try #require(a.count == 26_000)
        #expect(a.allSatisfy { abs($0 - 1) < 0.01 }, "worst |a| \(a.max()!), \(a.min()!)")
        let fit = try recordedFit(try manifest(under: base))
        #expect(fit.triple("gain") == Miscalibrated.gain && fit["reason"] == .string("given in the configuration"))
    }

    @Test(arguments: [
        ("{offset: [0.1, 0.2], gain: [1, 1, 1]}", "calibration.offset", "three numbers"),
        ("{offset: [0, 0, 0], gain: [1, 0, 1]}", "calibration.gain", "flatten"),
        ("sometimes", "calibration", "expected auto, off"),
        ("{offset: [0, 0, 0], gain: [1, 1, 1], from: x.json}", "calibration", "no coefficients beside it"),
    ])
    func badCoefficientsAreConfigurationErrors(value: String, key: String, message: String) throws {
        do {
            _ = try PipelineHarness.run(yaml: Self.yaml("/nonexistent.cwa", calibration: value), plugins: Self.plugins)
            Issue.record("\(value) was accepted")
        } catch {
            let text = "\(error)"
            #expect(text.contains(key) && text.contains(message), "\(text)")
            #expect(text.contains("test.yaml:"), "the error names the line: \(text)")
        }
    }

    @Test func autoWithoutAFirstPassIsAConfigurationErrorSayingWhatToDo() throws {
        let path = try Miscalibrated.writer(Miscalibrated.everyWay, hold: 10).file()
        for clock in ["replay", "realtime"] {
            do {
                _ = try PipelineHarness.run(yaml: Self.yaml(path, clock: clock), plugins: Self.plugins)
                Issue.record("auto ran on the \(clock) clock")
            } catch {
                let text = "\(error)"
                #expect(
                    text.contains("transforms.cal") && text.contains("clock: virtual")
                        && text.contains("calibration: {from: OUT/<run>/manifest.json}") && text.contains(clock)
                        && text.contains("test.yaml:7:"),
                    "\(text)")
            }
        }
    }
}
