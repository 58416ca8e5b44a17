import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// The temperature term: a device whose offset drifts with temperature, as real ones do (a few
/// mg/°C), recorded as a CSV with a `temperature` column that warms from 20 °C to 30 °C.
@Suite(.timeLimit(.minutes(20))) struct CalibrationTemperatureTests {
    static let slope = [0.002, -0.0015, 0.001]
    /// The temperature at which the device's offset is `Miscalibrated.offset`.
    static let base = 25.0

    @Test func aTemperatureTermIsFittedWhenTheTemperatureVaries() throws {
        // Visited out of the lattice's order, whose z falls steadily: with the temperature rising
        // steadily too, z's gain and temperature slope could not be told apart.
        let orientations = (0..<26).map { Miscalibrated.everyWay[($0 * 7) % 26] }
        let rate = 10.0
        let hold = 30.0
        let count = Int(Double(orientations.count) * hold * rate)
        var csv = "timestamp,x,y,z,temperature\n"
        for n in 0..<count {
            let t = Double(n) / rate
            let g = orientations[Int(t / hold)]
            let temperature = 20 + 10 * Double(n) / Double(count)
            var row = "\(1_700_000_000 + t)"
            for (k, v) in [g.0, g.1, g.2].enumerated() {
                let drift = Self.slope[k] * (temperature - Self.base)
                let raw = (v - Miscalibrated.offset[k] - drift) / Miscalibrated.gain[k]
                row += ",\(raw + 0.002 * (2 * Miscalibrated.unit(UInt64(n * 3 + k)) - 1))"
            }
            csv += row + ",\(temperature)\n"
        }
        let path = recording("warming.csv", csv)
        let logs = tempDirectory()
        let yaml = """
            name: warm
            clock: virtual
            sources:
              accel: {type: motion.replay, path: "\(path)", time_unit: s}
            transforms:
              cal: {type: motion.calibrate, inputs: [accel]}
            sinks:
              log: {type: logger.csv, inputs: [cal], directory: "\(logs)"}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all + SampleLoggerPlugins.all)
        #expect(outcome.result.state == .finished, "\(outcome.result)")
        let fit = try recordedFit(try manifest(under: logs))
        #expect(fit["accepted"] == .bool(true), "\(fit)")
        let reference = fit["reference"]?.doubleValue ?? .nan
        #expect(abs(reference - 25) < 0.5, "the still windows' mean temperature, \(reference) °C")
        let (offset, gain, temperature) = (fit.triple("offset"), fit.triple("gain"), fit.triple("temperature"))
        for k in 0..<3 {
            // The fitted offset is the device's at the reference temperature.
            let expected = Miscalibrated.offset[k] + Self.slope[k] * (reference - Self.base)
            #expect(abs(offset[k] - expected) < 0.001, "offset \(k): \(offset[k]) g, expected \(expected)")
            #expect(abs(gain[k] / Miscalibrated.gain[k] - 1) < 0.001, "gain \(k): \(gain[k])")
            #expect(abs(temperature[k] - Self.slope[k]) < 0.0001, "temperature \(k): \(temperature[k]) g/°C")
        }
        #expect((fit["error_after_mg"]?.doubleValue ?? 99) < 1, "\(fit)")
    }
}
