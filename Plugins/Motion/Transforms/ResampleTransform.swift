import DAQCore

/// Resamples to a fixed rate by linear interpolation between neighbouring samples. A gap
/// longer than `max_gap` is not bridged: no samples are made up inside it, and it is reported.
public final class ResampleTransform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(
            type: "double (Hz)", required: "The output rate; samples fall on multiples of 1/rate of run-clock time.")
        var rate: Double
        @Setting(
            whenUnset: "\(Configuration.gapPeriods) periods of the output", "A longer gap between inputs is left empty."
        )
        var maxGap: Seconds?
        @Setting(whenUnset: "every numeric field", "Fields to interpolate; others are carried from the earlier sample.")
        var fields: [String]?

        /// Periods of the output a gap may span, when `max_gap` is unset, before it is not bridged.
        static let gapPeriods = 5

        public init() {}

        public func validate() throws {
            if !(rate > 0) || !rate.isFinite { throw $rate.issue("must be greater than 0 Hz, found \(rate)") }
            if let maxGap, !(maxGap.value > 0) { throw $maxGap.issue("must be more than 0 s") }
        }
    }

    public static let typeName = "motion.resample"
    public static let summary =
        "Resamples to a fixed rate by linear interpolation; gaps over max_gap are reported, not bridged; next to a NaN or inf input, null."

    public static let output = StreamOutput(
        .input, note: "the input's fields at `rate` Hz; the interpolated ones as doubles, the others carried")

    private let period: Double
    private let maxGap: Double
    private let only: [String]?
    private var previous: Sample?
    private var nextIndex: Int64?
    private var gaps = 0
    /// Input fields that were NaN or infinite.
    private var nonFiniteInputs = 0
    /// Markers wait until the grid passes their time, so the output stays in time order.
    private var markers: [Sample] = []
    /// The step of the last marker let out, and when: grid points after it belong to it.
    private var markerStep: (uptime: Double, path: String)?

    public init(configuration: Configuration, context: PluginContext) throws {
        period = 1 / configuration.rate
        maxGap = configuration.maxGap?.value ?? Double(Configuration.gapPeriods) / configuration.rate
        only = configuration.fields
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        var d = input
        for i in d.fields.indices where only?.contains(d.fields[i].name) ?? (d.fields[i].type == .int) {
            d.fields[i].type = .double
        }
        d.rate = .hz(1 / period)
        return d
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        var out = Batch(stream: context.name, capacity: batch.count)
        for i in 0..<batch.count {
            let current = batch[i]
            guard current.kind == .data else {
                if previous == nil { out.append(current) } else { markers.append(current) }
                continue
            }
            defer { previous = current }
            noteNonFinite(current, context: context)
            guard let p = previous else {
                nextIndex = Int64((current.uptime / period - 1e-9).rounded(.up))
                continue
            }
            let span = current.uptime - p.uptime
            guard span > 0 else { continue }
            if span > maxGap {
                // The sample before the gap may sit on the grid itself.
                if let k = nextIndex, abs(Double(k) * period - p.uptime) < 1e-9 {
                    releaseMarkers(before: p.uptime + 1e-12, into: &out)
                    out.append(interpolate(p, p, at: p.uptime))
                }
                releaseMarkers(before: current.uptime, into: &out)
                gaps += 1
                context.warn(
                    "gap of \(short(span)) s from \(short(p.uptime)) s to \(short(current.uptime)) s not bridged")
                nextIndex = Int64((current.uptime / period - 1e-9).rounded(.up))
                continue
            }
            while let k = nextIndex, Double(k) * period < current.uptime - 1e-12 {
                let t = Double(k) * period
                releaseMarkers(before: t + 1e-12, into: &out)
                if t >= p.uptime - 1e-12 { out.append(interpolate(p, current, at: t)) }
                nextIndex = k + 1
            }
            releaseMarkers(before: current.uptime, into: &out)
        }
        batch = out
    }

    public func finish(context: StageContext) throws -> Batch {
        var out = Batch(stream: context.name)
        // The last input lies on the grid only by chance; emit it then.
        if let p = previous, let k = nextIndex, abs(Double(k) * period - p.uptime) < 1e-9 {
            releaseMarkers(before: p.uptime + 1e-12, into: &out)
            out.append(interpolate(p, p, at: p.uptime))
        }
        releaseMarkers(before: .infinity, into: &out)
        if nonFiniteInputs > 20 { context.warn("\(nonFiniteInputs) NaN or inf inputs in all") }
        return out
    }

    /// A NaN or infinite input field makes the outputs between it and its neighbours null (and
    /// no others: the next pair of finite inputs interpolates as before); each is counted.
    private func noteNonFinite(_ sample: Sample, context: StageContext) {
        for (key, value) in sample.fields.pairs where only.map({ $0.contains(key) }) ?? true {
            guard case .double(let d) = value, !d.isFinite else { continue }
            nonFiniteInputs += 1
            if nonFiniteInputs <= 20 {
                context.warn(
                    "\(key) is \(NonFinite.name(d)) at uptime \(short(sample.uptime)) s: "
                        + "the outputs between it and its neighbours are null")
            }
        }
    }

    private func releaseMarkers(before t: Double, into out: inout Batch) {
        var released = 0
        for m in markers where m.uptime <= t {
            out.append(m)
            markerStep = (m.uptime, m.stepPath)
            released += 1
        }
        if released > 0 { markers.removeFirst(released) }
    }

    private func interpolate(_ a: Sample, _ b: Sample, at t: Double) -> Sample {
        let w = b.uptime > a.uptime ? (t - a.uptime) / (b.uptime - a.uptime) : 0
        var fields = Fields()
        for (key, va) in a.fields.pairs {
            let wanted = only.map { $0.contains(key) } ?? true
            // Integer fields (counters, ids) are carried unless named: halfway between two ids is no id.
            var isInt = false
            if case .int = va { isInt = true }
            if wanted, let x = va.doubleValue, let y = b.fields[key]?.doubleValue, !(isInt && only == nil) {
                // Between a NaN or inf and its neighbour there is nothing to interpolate.
                fields[key] = x.isFinite && y.isFinite ? .double(x + (y - x) * w) : .null
            } else {
                fields[key] = va
            }
        }
        let step = markerStep.map { $0.uptime > a.uptime ? $0.path : a.stepPath } ?? a.stepPath
        return Sample(
            timestamp: a.timestamp + (b.timestamp - a.timestamp) * w, uptime: t, stepPath: step, fields: fields)
    }

    private func short(_ d: Double) -> String { String((d * 1000).rounded() / 1000) }
}
