import Foundation

/// A wrist-worn accelerometer's days, as accelerometer counts for ``CWAWriter``: nights lying
/// still in a few postures with a turn every 20 minutes, days of sitting, light movement,
/// walking and some vigorous bouts in 10-minute blocks, spans on a table (non-wear), and a
/// known miscalibration. Sample `n` is a pure function of `n`, so a week-long file is written
/// as it streams, and the same settings always give the same file.
public struct WristActivity: Sendable {
    /// Seconds since the local midnight before the first sample at which it is taken.
    public var startOfDay: Double = 10 * 3_600
    /// Spans the device lay still on a table, seconds from the first sample, start ..< end.
    public var offWrist: [Range<Double>]
    /// The device's offset per axis, g: it reads truth / gain − offset.
    public var offset: (x: Double, y: Double, z: Double) = (0.03, -0.02, 0.025)
    /// The device's gain error per axis: it reads the truth divided by this.
    public var gain: (x: Double, y: Double, z: Double) = (1.015, 0.99, 1.01)
    /// Samples a second, as the writer's `rate`.
    public var rate: Double = 100
    /// Counts per g: 256 for an AX3.
    public var countsPerG: Double = 256

    /// Offsets and gains that `daq run`'s `motion.calibrate` should recover: correction =
    /// offset' + gain' × reading, with gain' = gain and offset' = offset × gain.
    public var correction: (offset: [Double], gain: [Double]) {
        ([offset.x * gain.x, offset.y * gain.y, offset.z * gain.z], [gain.x, gain.y, gain.z])
    }

    /// The usual week: off the wrist on the second day 10:00–13:00 and the fifth 14:00–18:30.
    public init() {
        let day = 86_400.0
        offWrist = [day..<(day + 3 * 3_600), (4 * day + 4 * 3_600)..<(4 * day + 8.5 * 3_600)]
    }

    /// Hours off the wrist that fall in the local day `day` (0 is the first sample's day).
    public func offWristHours(day: Int) -> Double {
        let dayStart = Double(day) * 86_400 - startOfDay
        return offWrist.reduce(0) { sum, span in
            sum + max(0, min(span.upperBound, dayStart + 86_400) - max(span.lowerBound, dayStart)) / 3_600
        }
    }

    /// The counts `CWAWriter.counts` takes.
    public var counts: @Sendable (Int) -> (x: Int, y: Int, z: Int) {
        let me = self
        return { n in me.sample(n) }
    }

    /// Lying postures, one per 90 minutes of a night.
    private static let postures: [(Double, Double, Double)] = [
        (0, 0, 1), (0.95, 0, 0.31), (0, -0.96, 0.28), (-0.93, 0.1, 0.35), (0.2, 0.94, -0.28), (0.1, 0.2, -0.97),
    ]
    /// Arm orientations awake, one per 10-minute block.
    private static let arms: [(Double, Double, Double)] = [
        (-0.9, 0.3, 0.3), (-0.5, 0.1, 0.86), (-0.2, -0.7, 0.68), (0.3, 0.4, 0.87), (-0.95, -0.1, -0.29),
    ]

    /// Counts of sample `n`.
    public func sample(_ n: Int) -> (x: Int, y: Int, z: Int) {
        let t = Double(n) / rate
        let r = Self.mix(UInt64(truncatingIfNeeded: n))
        let u = (Self.unit(r), Self.unit(r >> 21), Self.unit(r >> 42))
        var a: (Double, Double, Double)
        if offWrist.contains(where: { $0.contains(t) }) {
            a = (0.004 * u.0, 0.004 * u.1, 1 + 0.004 * u.2)
        } else {
            let tod = (startOfDay + t).truncatingRemainder(dividingBy: 86_400)
            if tod >= 23 * 3_600 || tod < 7 * 3_600 {
                let p = Self.postures[Int(t / 5_400) % Self.postures.count]
                // A turn of 10 s every 20 minutes keeps the night worn (range over 150 mg).
                let turn = t.truncatingRemainder(dividingBy: 1_200) < 10 ? 0.35 * sin(2 * .pi * 0.7 * t) : 0
                a = (p.0 + turn + 0.01 * u.0, p.1 + 0.01 * u.1, p.2 - turn + 0.01 * u.2)
            } else {
                let block = Int(t / 600)
                let arm = Self.arms[block % Self.arms.count]
                let kind = Self.mix(UInt64(block) &+ 0x9E37) % 20
                let inBlock = t.truncatingRemainder(dividingBy: 600)
                // Sitting (half the blocks) starts with two still minutes, which calibration uses.
                let (amplitude, hz, noise): (Double, Double, Double) =
                    kind < 10
                    ? (inBlock < 120 ? (0, 0, 0.01) : (0.05, 0.3, 0.06))
                    : kind < 16 ? (0.15, 1, 0.05) : kind < 19 ? (0.45, 1.8, 0.1) : (1.1, 2.5, 0.2)
                let s = amplitude * sin(2 * .pi * hz * t)
                a = (arm.0 + s + noise * u.0, arm.1 + 0.6 * s + noise * u.1, arm.2 - 0.5 * s + noise * u.2)
            }
        }
        func count(_ truth: Double, _ offset: Double, _ gain: Double) -> Int {
            Int(((truth / gain - offset) * countsPerG).rounded())
        }
        return (count(a.0, offset.x, gain.x), count(a.1, offset.y, gain.y), count(a.2, offset.z, gain.z))
    }

    /// SplitMix64: cheap, seedless noise that depends on `n` only.
    private static func mix(_ n: UInt64) -> UInt64 {
        var z = n &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// 21 bits of `r` as a number in -0.5 ..< 0.5.
    private static func unit(_ r: UInt64) -> Double { Double(r & 0x1F_FFFF) / Double(0x20_0000) - 0.5 }
}
