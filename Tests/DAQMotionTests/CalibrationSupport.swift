import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// Recordings of a device with a known miscalibration, written by DAQTesting's `.cwa` writer.
enum Miscalibrated {
    /// The device's error: its sensor reads raw = (g − offset) / gain, so offset + gain × raw,
    /// the correction motion.calibrate fits, gives back the true gravity g.
    static let offset = [0.031, -0.022, 0.017]
    static let gain = [1.021, 0.984, 1.012]

    /// 26 orientations spread evenly over the sphere (a Fibonacci lattice): every axis points
    /// well beyond ±0.3 g in some of them.
    static let everyWay: [(Double, Double, Double)] = (0..<26).map { i in
        let z = 1 - 2 * (Double(i) + 0.5) / 26
        let r = (1 - z * z).squareRoot()
        let phi = Double(i) * 2.399_963_229_728_653
        return (r * cos(phi), r * sin(phi), z)
    }

    /// Lying flat, face up and face down: x and y never see gravity.
    static let flat: [(Double, Double, Double)] = [(0, 0, 1), (0, 0, -1)]

    /// An AX6 (1/4096 g a count, so the counts' rounding is far under 1 mg) held still in each of
    /// `orientations` for `hold` seconds in turn, at 100 Hz, with seeded noise of ±`noise` g
    /// (under the 13 mg still limit), read through `offset` and `gain`.
    static func writer(
        _ orientations: [(Double, Double, Double)], hold: Double = 30, offset: [Double] = offset,
        gain: [Double] = gain, noise: Double = 0.003
    ) -> CWAWriter {
        var w = CWAWriter()
        w.device = .ax6
        w.range = 8
        w.seconds = hold * Double(orientations.count)
        let perBlock = Int(hold * 100)
        let scale = 4096.0
        w.counts = { n in
            let g = orientations[(n / perBlock) % orientations.count]
            func raw(_ k: Int, _ v: Double) -> Int {
                let read = (v - offset[k]) / gain[k] + noise * (2 * unit(UInt64(n * 3 + k)) - 1)
                return Int((read * scale).rounded())
            }
            return (raw(0, g.0), raw(1, g.1), raw(2, g.2))
        }
        return w
    }

    /// A number in [0, 1) from `n`, the same every run (splitmix64).
    static func unit(_ n: UInt64) -> Double {
        var z = n &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
}

/// A run's manifest.json under `base` (the one run directory there), as fields.
func manifest(under base: String) throws -> Fields {
    let names = try FileManager.default.contentsOfDirectory(atPath: base).filter { !$0.hasPrefix(".") }
    let dir = base + "/" + (try #require(names.first, "no run directory under \(base)"))
    let value = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))))
    guard case .object(let m) = value else {
        Issue.record("the manifest is not an object")
        return Fields()
    }
    return m
}

/// The fit component `name` recorded in a manifest's `results`.
func recordedFit(_ manifest: Fields, _ name: String = "cal") throws -> Fields {
    guard case .object(let results)? = manifest["results"], case .object(let fit)? = results[name] else {
        Issue.record("the manifest has no results.\(name)")
        return Fields()
    }
    return fit
}

extension Fields {
    /// A list of three numbers, or NaNs so a comparison fails loudly.
    func triple(_ key: String) -> [Double] {
        guard case .array(let items)? = self[key], items.count == 3 else { return [.nan, .nan, .nan] }
        return items.map { $0.doubleValue ?? .nan }
    }
}
