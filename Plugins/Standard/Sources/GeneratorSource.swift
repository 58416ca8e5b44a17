import DAQCore
import Foundation

/// Synthetic signals at a fixed rate: for demos, tests and benchmarks.
///
/// Sample `i` is stamped `i / rate` on the run clock whatever the clock mode, so a generator
/// gives the same samples live, replayed and virtual.
public final class GeneratorSource: SourcePlugin {
    public enum Signal: String, ConfigEnum, Sendable {
        case sine, square, sawtooth, noise, counter
    }

    public struct Configuration: PluginConfiguration {
        var signal: Signal = .sine
        var rate: Double = 10
        var count: Int?
        var amplitude: Double = 1
        var frequency: Double = 1
        var offset: Double = 0
        var field: String = "value"
        var seed: UInt64 = 1

        enum CodingKeys: String, CodingKey {
            case signal, rate, count, amplitude, frequency, offset, field, seed
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            signal = try c.decodeIfPresent(Signal.self, forKey: .signal) ?? .sine
            rate = try c.decodeIfPresent(Double.self, forKey: .rate) ?? 10
            count = try c.decodeIfPresent(Int.self, forKey: .count)
            amplitude = try c.decodeIfPresent(Double.self, forKey: .amplitude) ?? 1
            frequency = try c.decodeIfPresent(Double.self, forKey: .frequency) ?? 1
            offset = try c.decodeIfPresent(Double.self, forKey: .offset) ?? 0
            field = try c.decodeIfPresent(String.self, forKey: .field) ?? "value"
            seed = try c.decodeIfPresent(UInt64.self, forKey: .seed) ?? 1
        }

        public func validate() throws {
            if !(rate > 0) || !rate.isFinite { throw ConfigIssue(key: "rate", "must be greater than 0 Hz, found \(rate)") }
            if let count, count < 0 { throw ConfigIssue(key: "count", "must be 0 or more, found \(count)") }
            if field.isEmpty { throw ConfigIssue(key: "field", "must not be empty") }
            if ["seq"].contains(field) { throw ConfigIssue(key: "field", "'seq' is the generator's own counter field") }
        }
    }

    public static let typeName = "generator"
    public static let summary = "Synthetic sine, square, sawtooth, noise or counter signal at a fixed rate."
    public static let configKeys: [ConfigKey] = [
        ConfigKey("signal", Signal.choices, default: "sine", "The waveform."),
        ConfigKey("rate", "double (Hz)", default: "10", "Samples per second of run-clock time."),
        ConfigKey("count", "int", "Samples to produce; omit to run until stopped."),
        ConfigKey("amplitude", "double", default: "1", "Peak amplitude (noise: half-width)."),
        ConfigKey("frequency", "double (Hz)", default: "1", "Waveform frequency."),
        ConfigKey("offset", "double", default: "0", "Added to every value."),
        ConfigKey("field", "string", default: "value", "Name of the value field; `seq` holds the sample number."),
        ConfigKey("seed", "int", default: "1", "Seed of the noise generator."),
    ]

    private let config: Configuration
    private var next: Int64 = 0
    private var rng: UInt64

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        rng = configuration.seed == 0 ? 0x9E37_79B9_7F4A_7C15 : configuration.seed
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        let end = config.count.map { min(Int64($0), next + Int64(limit)) } ?? next + Int64(limit)
        let n = Int(max(0, end - next))
        var values = [Double]()
        var seqs = [Int64]()
        values.reserveCapacity(n)
        seqs.reserveCapacity(n)
        let start = context.startDate
        for i in next..<max(next, end) {
            let t = Double(i) / config.rate
            batch.appendRow(uptime: t, timestamp: start + t)
            values.append(value(at: t, index: i))
            seqs.append(i)
        }
        next = max(next, end)
        batch.setColumn(Column(name: "seq", ints: seqs))
        batch.setColumn(Column(name: config.field, doubles: values))
        if let count = config.count, next >= Int64(count) { return .finished }
        return .more
    }

    private func value(at t: Double, index: Int64) -> Double {
        let a = config.amplitude
        let phase = (t * config.frequency).truncatingRemainder(dividingBy: 1)
        let v: Double
        switch config.signal {
        case .sine: v = a * sin(2 * Double.pi * phase)
        case .square: v = phase < 0.5 ? a : -a
        case .sawtooth: v = a * (2 * phase - 1)
        case .counter: v = Double(index)
        case .noise:
            // xorshift64*: fast, seeded, reproducible across runs and platforms.
            rng ^= rng >> 12
            rng ^= rng << 25
            rng ^= rng >> 27
            let r = rng &* 0x2545_F491_4F6C_DD1D
            v = a * (Double(r >> 11) / Double(1 << 53) * 2 - 1)
        }
        return v + config.offset
    }
}
