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
        @Setting("The waveform.") var signal = Signal.sine
        @Setting(type: "double (Hz)", "Samples per second of run-clock time.") var rate = 10.0
        @Setting("Samples to produce; omit to run until stopped.") var count: Int?
        @Setting("Peak amplitude (noise: half-width).") var amplitude = 1.0
        @Setting(type: "double (Hz)", "Waveform frequency.") var frequency = 1.0
        @Setting("Added to every value.") var offset = 0.0
        @Setting("Name of the value field; `seq` holds the sample number.") var field = "value"
        @Setting("Seed of the noise generator.") var seed = 1

        public init() {}

        public func validate() throws {
            if !(rate > 0) || !rate.isFinite { throw $rate.issue("must be greater than 0 Hz, found \(rate)") }
            if let count, count < 0 { throw $count.issue("must be 0 or more, found \(count)") }
            if field.isEmpty { throw $field.issue("must not be empty") }
            if ["seq"].contains(field) { throw $field.issue("'seq' is the generator's own counter field") }
            if seed < 0 { throw $seed.issue("must be 0 or more, found \(seed)") }
        }
    }

    public static let typeName = "generator"
    public static let summary = "Synthetic sine, square, sawtooth, noise or counter signal at a fixed rate."
    public static let output = StreamOutput(
        .own,
        [
            OutputField("seq", .int, "the sample's number, from 0"),
            OutputField("value", .double, "the signal (named by `field`)"),
        ],
        note: "at `rate` Hz, on the run clock")

    // Plain copies of the keys: the per-sample loop reads them without going through `@Setting`.
    private let signal: Signal
    private let rate, amplitude, frequency, offset: Double
    private let count: Int?
    private let field: String
    private var next: Int64 = 0
    private var rng: UInt64

    public init(configuration: Configuration, context: PluginContext) throws {
        signal = configuration.signal
        rate = configuration.rate
        amplitude = configuration.amplitude
        frequency = configuration.frequency
        offset = configuration.offset
        count = configuration.count
        field = configuration.field
        rng = configuration.seed == 0 ? 0x9E37_79B9_7F4A_7C15 : UInt64(configuration.seed)
    }

    public func describe(context: PluginContext) throws -> StreamDescriptor {
        StreamDescriptor(
            fields: [FieldDescriptor("seq", .int), FieldDescriptor(field, .double)], rate: .hz(rate), timeBase: .run)
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        let end = count.map { min(Int64($0), next + Int64(limit)) } ?? next + Int64(limit)
        let n = Int(max(0, end - next))
        // Column by column: the batch takes the arrays whole, with no per-sample call into it.
        var uptimes = [Double]()
        var timestamps = [Double]()
        var values = [Double]()
        var seqs = [Int64]()
        uptimes.reserveCapacity(n)
        timestamps.reserveCapacity(n)
        values.reserveCapacity(n)
        seqs.reserveCapacity(n)
        let start = context.startDate
        for i in next..<max(next, end) {
            let t = Double(i) / rate
            uptimes.append(t)
            timestamps.append(start + t)
            values.append(value(at: t, index: i))
            seqs.append(i)
        }
        next = max(next, end)
        batch.appendRows(uptimes: uptimes, timestamps: timestamps)
        batch.setColumn(Column(name: "seq", ints: seqs))
        batch.setColumn(Column(name: field, doubles: values))
        if let count = count, next >= Int64(count) { return .finished }
        return .more
    }

    private func value(at t: Double, index: Int64) -> Double {
        let a = amplitude
        let phase = (t * frequency).truncatingRemainder(dividingBy: 1)
        let v: Double
        switch signal {
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
        return v + offset
    }
}
