import DAQCore

/// Settings shared by the first-order low-pass and high-pass filters.
public struct FilterConfiguration: PluginConfiguration {
    var fields: [String]
    var alpha: Double?
    var cutoff: Double?
    var suffix: String?

    enum CodingKeys: String, CodingKey {
        case field, fields, alpha, suffix
        case cutoff = "cutoff_hz"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let one = try c.decodeIfPresent(String.self, forKey: .field) {
            fields = [one]
        } else {
            fields = try c.decodeIfPresent([String].self, forKey: .fields) ?? ["x", "y", "z"]
        }
        alpha = try c.decodeIfPresent(Double.self, forKey: .alpha)
        cutoff = try c.decodeIfPresent(Double.self, forKey: .cutoff)
        suffix = try c.decodeIfPresent(String.self, forKey: .suffix)
    }

    public func validate() throws {
        switch (alpha, cutoff) {
        case (nil, nil): throw ConfigIssue(key: "alpha", "give alpha (0 < alpha ≤ 1) or cutoff_hz")
        case (.some, .some): throw ConfigIssue(key: "cutoff_hz", "give either alpha or cutoff_hz, not both")
        case (.some(let a), nil) where !(a > 0 && a <= 1): throw ConfigIssue(key: "alpha", "must be in (0, 1], found \(a)")
        case (nil, .some(let f)) where !(f > 0 && f.isFinite): throw ConfigIssue(key: "cutoff_hz", "must be greater than 0 Hz, found \(f)")
        default: break
        }
        if fields.isEmpty { throw ConfigIssue(key: "fields", "name at least one field") }
    }

    static func keys(defaultSuffix: String) -> [ConfigKey] {
        [
            ConfigKey("field", "string", "The field to filter."),
            ConfigKey("fields", "[string]", default: "[x, y, z]", "Several fields to filter (instead of `field`)."),
            ConfigKey("alpha", "double", "Smoothing factor in (0, 1]."),
            ConfigKey("cutoff_hz", "double (Hz)", "Cut-off frequency; alpha follows from each sample's time step."),
            ConfigKey("suffix", "string", default: defaultSuffix, "Output field = field + suffix; \"\" replaces the field."),
        ]
    }
}

/// One first-order filter per field, across batches.
struct FirstOrderState {
    var previousInput: Double?
    var previousOutput: Double?
    var previousTime: Double?
}

/// Runs a first-order filter over columns, writing `<field><suffix>`.
///
/// A NaN or infinite input would stay in the filter's state for good and turn every later
/// output into NaN. So it is skipped: its output is null, it is counted, and the state stays
/// as the last finite input left it; the next finite input goes on from there (with
/// `cutoff_hz`, over the whole time since that input).
enum FirstOrder {
    static func apply(
        _ batch: inout Batch, config: FilterConfiguration, suffix: String, states: inout [FirstOrderState],
        skipped: inout NonFiniteInputs, context: StageContext, step: (inout FirstOrderState, Double, Double?) -> Double
    ) {
        for (f, field) in config.fields.enumerated() {
            guard let column = batch.column(field) else { continue }
            var out = [Double]()
            out.reserveCapacity(batch.count)
            var allNumbers = true
            var boxed = [Value]()
            for i in 0..<batch.count {
                let value = batch.kinds[i] == .data ? column.double(at: i) : nil
                if let v = value, !v.isFinite {
                    skipped.note(field: field, value: v, uptime: batch.uptimes[i], output: field + suffix, context: context)
                }
                guard let v = value, v.isFinite else {
                    if allNumbers {
                        boxed = out.map(Value.double)
                        allNumbers = false
                    }
                    boxed.append(.null)
                    continue
                }
                let t = batch.uptimes[i]
                let dt = states[f].previousTime.map { t - $0 }
                let y = step(&states[f], v, dt)
                states[f].previousTime = t
                if allNumbers { out.append(y) } else { boxed.append(.double(y)) }
            }
            batch.setColumn(allNumbers ? Column(name: field + suffix, doubles: out) : Column(name: field + suffix, values: boxed))
        }
    }

    /// alpha for a low-pass of cut-off `fc` over a step `dt`: dt / (RC + dt).
    static func lowpassAlpha(cutoff fc: Double, dt: Double) -> Double {
        let rc = 1 / (2 * Double.pi * fc)
        return dt / (rc + dt)
    }
}

/// `y += alpha · (x − y)`: smooths noise, keeps slow changes.
public final class LowpassTransform: TransformPlugin {
    public typealias Configuration = FilterConfiguration
    public static let typeName = "motion.lowpass"
    public static let summary =
        "First-order low-pass by alpha or cutoff_hz; writes <field>_lp. A NaN or inf input gives null and leaves the state as it was."
    public static let configKeys = FilterConfiguration.keys(defaultSuffix: "_lp")

    private let config: FilterConfiguration
    private var states: [FirstOrderState]
    private var skipped = NonFiniteInputs()

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        states = Array(repeating: FirstOrderState(), count: configuration.fields.count)
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        let alpha = config.alpha
        let cutoff = config.cutoff
        FirstOrder.apply(
            &batch, config: config, suffix: config.suffix ?? "_lp", states: &states, skipped: &skipped, context: context
        ) { s, x, dt in
            guard let y = s.previousOutput else {
                s.previousOutput = x
                return x
            }
            let a = alpha ?? FirstOrder.lowpassAlpha(cutoff: cutoff!, dt: max(dt ?? 0, 0))
            let next = y + a * (x - y)
            s.previousOutput = next
            return next
        }
    }

    public func finish(context: StageContext) throws -> Batch {
        skipped.summarize(context: context)
        return Batch()
    }
}

/// `y = alpha · (y + x − x₋₁)`: keeps fast changes, removes the constant part (gravity).
public final class HighpassTransform: TransformPlugin {
    public typealias Configuration = FilterConfiguration
    public static let typeName = "motion.highpass"
    public static let summary =
        "First-order high-pass by alpha or cutoff_hz (removes gravity); writes <field>_hp. A NaN or inf input gives null and leaves the state as it was."
    public static let configKeys = FilterConfiguration.keys(defaultSuffix: "_hp")

    private let config: FilterConfiguration
    private var states: [FirstOrderState]
    private var skipped = NonFiniteInputs()

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        states = Array(repeating: FirstOrderState(), count: configuration.fields.count)
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        let alpha = config.alpha
        let cutoff = config.cutoff
        FirstOrder.apply(
            &batch, config: config, suffix: config.suffix ?? "_hp", states: &states, skipped: &skipped, context: context
        ) { s, x, dt in
            defer { s.previousInput = x }
            guard let y = s.previousOutput, let x0 = s.previousInput else {
                s.previousOutput = 0
                return 0
            }
            let a = alpha ?? (1 - FirstOrder.lowpassAlpha(cutoff: cutoff!, dt: max(dt ?? 0, 0)))
            let next = a * (y + x - x0)
            s.previousOutput = next
            return next
        }
    }

    public func finish(context: StageContext) throws -> Batch {
        skipped.summarize(context: context)
        return Batch()
    }
}

/// NaN and infinite inputs a stateful transform skipped: the first ones reported one by one
/// (each a warning, so counted as an error), the total at the end.
struct NonFiniteInputs {
    /// Inputs skipped so far.
    private(set) var count = 0
    static let reportLimit = 20

    mutating func note(field: String, value: Double, uptime: Double, output: String, context: StageContext) {
        count += 1
        guard count <= Self.reportLimit else { return }
        context.warn(
            "\(field) is \(NonFinite.name(value)) at uptime \(String((uptime * 1000).rounded() / 1000)) s: "
                + "\(output) is null there, and the filter goes on from the last finite input")
    }

    func summarize(context: StageContext) {
        if count > Self.reportLimit { context.warn("\(count) NaN or inf inputs skipped in all") }
    }
}
