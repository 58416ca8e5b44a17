import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// Seeded noise in [−0.5, 0.5) for sample `i` of axis `axis` (splitmix64): the same on every run.
func noise(_ i: Int, _ axis: Int) -> Double {
    var z = UInt64(bitPattern: Int64(i)) &* 3 &+ UInt64(axis) &+ 0x9E37_79B9_7F4A_7C15
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    z ^= z >> 31
    return Double(z >> 11) / Double(1 << 53) - 0.5
}

/// A wrist at `rate` Hz that moves on every axis (SD and range far above the thresholds) except
/// in the `still` spans (seconds from its start), where it lies flat with ±`jitter` g of noise:
/// the non-wear put in.
struct Wrist: Sendable {
    var still: [Range<Double>]
    var rate: Double
    var jitter = 0.004

    /// Axes of sample `i`, in g.
    func axes(_ i: Int) -> (Double, Double, Double) {
        let t = Double(i) / rate
        var (x, y, z) = (0.0, 0.0, 1.0)
        if !still.contains(where: { $0.contains(t) }) {
            x += 0.3 * sin(2 * .pi * 0.07 * t)
            y += 0.2 * cos(2 * .pi * 0.13 * t)
            z += 0.25 * sin(2 * .pi * 0.04 * t)
        }
        return (x + 2 * jitter * noise(i, 0), y + 2 * jitter * noise(i, 1), z + 2 * jitter * noise(i, 2))
    }

    /// Axes of sample `i` in AX3 counts (1/256 g).
    func counts(_ i: Int) -> (x: Int, y: Int, z: Int) {
        let (x, y, z) = axes(i)
        return (Int((x * 256).rounded()), Int((y * 256).rounded()), Int((z * 256).rounded()))
    }

    /// `seconds` of samples from UTC second `start`, their uptimes `pace` × their offset.
    func samples(from start: Double = 1_700_000_000, seconds: Double, pace: Double = 1) -> [Sample] {
        (0..<Int((seconds * rate).rounded())).map { i in
            let (x, y, z) = axes(i)
            return Sample(
                timestamp: start + Double(i) / rate, uptime: Double(i) / rate * pace,
                fields: ["x": .double(x), "y": .double(y), "z": .double(z)])
        }
    }

    /// The samples as CSV text, `timestamp,x,y,z` (seconds since 1970, g).
    func csv(from start: Double = 1_700_000_000, seconds: Double) -> String {
        var text = "timestamp,x,y,z\n"
        for i in 0..<Int((seconds * rate).rounded()) {
            let (x, y, z) = axes(i)
            text += "\(start + Double(i) / rate),\(x),\(y),\(z)\n"
        }
        return text
    }
}

/// A `motion.nonwear` event's span, seconds since 1970.
struct FoundSpan: Equatable, CustomStringConvertible {
    var start: Double
    var end: Double
    var samples: Int

    init?(_ s: Sample) {
        guard s.kind == .event, s["event"] == .string("motion.nonwear"), let a = s["start"]?.doubleValue,
            let b = s["end"]?.doubleValue, let n = s["samples"]?.intValue
        else { return nil }
        (start, end, samples) = (a, b, Int(n))
    }

    var description: String { "[\(start), \(end)) with \(samples) samples" }
}

/// Every sample `motion.nonwear` gives for `samples` fed in batches of `size`, the end included.
func nonwear(_ config: String, _ samples: [Sample], size: Int? = nil) throws -> [Sample] {
    let h = try TransformHarness(NonwearTransform.self, config: config)
    let size = size ?? max(samples.count, 1)
    var out: [Sample] = []
    var i = 0
    while i < samples.count {
        out += try h.push(Array(samples[i..<min(i + size, samples.count)]))
        i += size
    }
    return out + (try h.finish())
}
