import DAQCore

/// Keys the first-order low-pass and high-pass filters share.
public struct FilterSettings: SettingGroup {
    @Setting("The field to filter.") var field: String?
    @Setting("Several fields to filter (instead of `field`).") var fields = ["x", "y", "z"]
    @Setting("Smoothing factor in (0, 1].") var alpha: Double?
    @Setting(key: "cutoff_hz", type: "double (Hz)", "Cut-off frequency; alpha follows from each sample's time step.")
    var cutoff: Double?

    public init() {}

    /// The fields filtered: `field` when given, else `fields`.
    var chosenFields: [String] { field.map { [$0] } ?? fields }

    func validate() throws {
        switch (alpha, cutoff) {
        case (nil, nil): throw $alpha.issue("give alpha (0 < alpha ≤ 1) or cutoff_hz")
        case (.some, .some): throw $cutoff.issue("give either alpha or cutoff_hz, not both")
        case (.some(let a), nil) where !(a > 0 && a <= 1): throw $alpha.issue("must be in (0, 1], found \(a)")
        case (nil, .some(let f)) where !(f > 0 && f.isFinite):
            throw $cutoff.issue("must be greater than 0 Hz, found \(f)")
        default: break
        }
        if chosenFields.isEmpty { throw $fields.issue("name at least one field") }
    }
}

/// The low-pass filter's keys: the shared ones and its output suffix.
public struct LowPassConfiguration: PluginConfiguration {
    var filter = FilterSettings()
    @Setting("Output field = field + suffix; \"\" replaces the field.") var suffix = "_lp"

    public init() {}
    public func validate() throws { try filter.validate() }
}

/// The high-pass filter's keys: the shared ones and its output suffix.
public struct HighPassConfiguration: PluginConfiguration {
    var filter = FilterSettings()
    @Setting("Output field = field + suffix; \"\" replaces the field.") var suffix = "_hp"

    public init() {}
    public func validate() throws { try filter.validate() }
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
        _ batch: inout Batch, fields: [String], suffix: String, states: inout [FirstOrderState],
        skipped: inout NonFiniteInputs, context: StageContext, step: (inout FirstOrderState, Double, Double?) -> Double
    ) {
        for (f, field) in fields.enumerated() {
            guard let column = batch.column(field) else { continue }
            var out = [Double]()
            out.reserveCapacity(batch.count)
            var allNumbers = true
            var boxed = [Value]()
            for i in 0..<batch.count {
                let value = batch.kinds[i] == .data ? column.double(at: i) : nil
                if let v = value, !v.isFinite {
                    skipped.note(
                        field: field, value: v, uptime: batch.uptimes[i], output: field + suffix, context: context)
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
            batch.setColumn(
                allNumbers ? Column(name: field + suffix, doubles: out) : Column(name: field + suffix, values: boxed))
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
    public typealias Configuration = LowPassConfiguration
    public static let typeName = "motion.lowpass"
    public static let summary =
        "First-order low-pass by alpha or cutoff_hz; writes <field>_lp. A NaN or inf input gives null and leaves the state as it was."

    public static let output = StreamOutput(
        .input,
        [OutputField("<field>_lp", .double, unitFrom: "the field's", "each field low-passed (named by `suffix`)")])

    private let config: FilterSettings
    private let suffix: String
    private var states: [FirstOrderState]
    private var skipped = NonFiniteInputs()

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration.filter
        suffix = configuration.suffix
        states = Array(repeating: FirstOrderState(), count: configuration.filter.chosenFields.count)
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        FirstOrder.describe(input, fields: config.chosenFields, suffix: suffix)
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        let alpha = config.alpha
        let cutoff = config.cutoff
        FirstOrder.apply(
            &batch, fields: config.chosenFields, suffix: suffix, states: &states, skipped: &skipped, context: context
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
    public typealias Configuration = HighPassConfiguration
    public static let typeName = "motion.highpass"
    public static let summary =
        "First-order high-pass by alpha or cutoff_hz (removes gravity); writes <field>_hp. A NaN or inf input gives null and leaves the state as it was."

    public static let output = StreamOutput(
        .input,
        [OutputField("<field>_hp", .double, unitFrom: "the field's", "each field high-passed (named by `suffix`)")])

    private let config: FilterSettings
    private let suffix: String
    private var states: [FirstOrderState]
    private var skipped = NonFiniteInputs()

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration.filter
        suffix = configuration.suffix
        states = Array(repeating: FirstOrderState(), count: configuration.filter.chosenFields.count)
    }

    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        FirstOrder.describe(input, fields: config.chosenFields, suffix: suffix)
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        let alpha = config.alpha
        let cutoff = config.cutoff
        FirstOrder.apply(
            &batch, fields: config.chosenFields, suffix: suffix, states: &states, skipped: &skipped, context: context
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

extension FirstOrder {
    /// The input with each filtered field's output, in the field's unit (the field itself
    /// when `suffix` is empty).
    static func describe(_ input: StreamDescriptor, fields: [String], suffix: String) -> StreamDescriptor {
        input.setting(fields.map { FieldDescriptor($0 + suffix, .double, unit: input.unit(of: $0)) })
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
