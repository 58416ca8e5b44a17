import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// The calibrated rows are the same at every batch size, and at the replay clock with the fit
/// the virtual run recorded in its manifest: the first pass sees the samples in the same order
/// whatever the batches, and the fit survives its trip through manifest.json to the last bit.
@Suite(.timeLimit(.minutes(20))) struct CalibrationInvarianceTests {
    /// Six faces and two diagonals, 20 s each: 160 s at 100 Hz, at least eight still windows.
    static let faces: [(Double, Double, Double)] = [
        (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1), (0.6, 0.48, 0.64), (-0.6, -0.48, -0.64),
    ]

    static func pipeline(_ path: String, calibration: String, log: String? = nil) -> String {
        var text = """
            name: cal
            clock: virtual
            sources:
              accel: {type: motion.replay, path: "\(path)"}
            transforms:
              cal: {type: motion.calibrate, inputs: [accel], calibration: \(calibration), min_windows: 5}
            sinks:
              out: {type: collect, inputs: [cal]}

            """
        if let log { text += "  log: {type: logger.csv, inputs: [cal], directory: \"\(log)\"}\n" }
        return text
    }

    @Test func theSameRowsAtEveryBatchSizeAndFromTheManifestAtEveryClock() throws {
        let dir = tempDirectory()
        let path = try Miscalibrated.writer(Self.faces, hold: 20).file()
        let plugins = MotionPlugins.all + SampleLoggerPlugins.all
        // Auto at the virtual clock, batches of 4,096, 1 and 7.
        try Self.pipeline(path, calibration: "auto").write(
            toFile: dir + "/auto.yaml", atomically: true, encoding: .utf8)
        let virtual = ClockInvariance.standardVariants.filter { $0.clock == .virtual }
        let batched = try ClockInvariance.differences(
            pipeline: dir + "/auto.yaml", plugins: plugins + [.collect], variants: virtual)
        #expect(batched.isEmpty, "\(batched.prefix(3).joined(separator: "\n"))")

        // Its fit, recorded in the manifest, reused at the virtual and the replay clock.
        let base = dir + "/runs"
        let auto = try PipelineHarness.run(yaml: Self.pipeline(path, calibration: "auto", log: base), plugins: plugins)
        let fit = try recordedFit(try manifest(under: base))
        try #require(fit["accepted"] == .bool(true), "the comparison needs a fit that changes the samples: \(fit)")
        let runDir = base + "/" + (try FileManager.default.contentsOfDirectory(atPath: base).first!)
        let reuse = Self.pipeline(path, calibration: "{from: \"\(runDir)/manifest.json\"}")
        try reuse.write(toFile: dir + "/reuse.yaml", atomically: true, encoding: .utf8)
        let again = try PipelineHarness.run(yaml: reuse, plugins: plugins).data("out")
        let first = auto.data("out")
        try #require(first.count == 16_000 && again.count == first.count)
        #expect(zip(first, again).allSatisfy { $0.fields == $1.fields }, "the reused fit gives the same samples")
        let clocks = try ClockInvariance.differences(
            pipeline: dir + "/reuse.yaml", plugins: plugins + [.collect], replaySpeed: 400)
        #expect(clocks.isEmpty, "\(clocks.prefix(3).joined(separator: "\n"))")
    }

    /// A fit file written by hand (or by jq from a manifest) with just offset and gain.
    @Test func aFitFileWithOffsetAndGainIsReused() throws {
        let dir = tempDirectory()
        let path = try Miscalibrated.writer(Self.faces, hold: 20).file()
        try #"{"offset": [0.031, -0.022, 0.017], "gain": [1.021, 0.984, 1.012]}"#.write(
            toFile: dir + "/fit.json", atomically: true, encoding: .utf8)
        let outcome = try PipelineHarness.run(
            yaml: Self.pipeline(path, calibration: "{from: \"\(dir)/fit.json\"}"), plugins: MotionPlugins.all)
        let a = outcome.data("out").map {
            ($0.number("x") * $0.number("x") + $0.number("y") * $0.number("y") + $0.number("z") * $0.number("z"))
                .squareRoot()
        }
        try #require(a.count == 16_000)
        #expect(a.allSatisfy { abs($0 - 1) < 0.01 })
        #expect(outcome.events.notices.contains { $0.contains("calibration from \(dir)/fit.json") })
    }

    @Test func aFitFileWithoutAFitIsAnError() throws {
        let dir = tempDirectory()
        try #"{"offset": [0.031, -0.022]}"#.write(toFile: dir + "/fit.json", atomically: true, encoding: .utf8)
        try #"{"pipeline": "x", "results": {}}"#.write(
            toFile: dir + "/manifest.json", atomically: true, encoding: .utf8)
        for (file, expected) in [
            ("fit.json", "'offset' is not three finite numbers"), ("manifest.json", "records no motion.calibrate fit"),
            ("missing.json", "cannot read the fit file"),
        ] {
            do {
                _ = try PipelineHarness.run(
                    yaml: Self.pipeline("/nonexistent.cwa", calibration: "{from: \"\(dir)/\(file)\"}"),
                    plugins: MotionPlugins.all)
                Issue.record("\(file) was taken")
            } catch {
                #expect("\(error)".contains(expected) && "\(error)".contains(file), "\(error)")
            }
        }
    }
}
