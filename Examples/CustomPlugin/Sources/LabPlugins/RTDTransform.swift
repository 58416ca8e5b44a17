import DAQCore

/// Turns a platinum RTD's resistance (Pt100, Pt1000) into temperature with the
/// Callendar–Van Dusen equation, after subtracting the lead resistance of a 2-wire hookup:
/// `type: lab.rtd`.
///
/// A sample whose resistance is missing, `null` (an overflow) or outside −200…850 °C gets a
/// `null` temperature, so the log keeps one row per reading; the first such value is reported
/// as a warning and the count at the end.
public final class RTDTransform: TransformPlugin {
    /// The unit the temperature is written in.
    public enum Unit: String, ConfigEnum, Sendable {
        /// Degrees Celsius.
        case celsius
        /// Kelvin: Celsius + 273.15.
        case kelvin
        /// Degrees Fahrenheit.
        case fahrenheit

        func convert(_ celsius: Double) -> Double {
            switch self {
            case .celsius: return celsius
            case .kelvin: return celsius + 273.15
            case .fahrenheit: return celsius * 9 / 5 + 32
            }
        }
    }

    /// The `lab.rtd` keys.
    public struct Configuration: PluginConfiguration {
        var field = "resistance"
        var output = "temperature"
        var r0 = 100.0
        var leadResistance = 0.0
        var unit = Unit.celsius
        var a: Double?, b: Double?, c: Double?

        enum CodingKeys: String, CodingKey {
            case field, output, r0, unit, a, b, c
            case leadResistance = "lead_resistance"
        }

        public init(from decoder: any Decoder) throws {
            let k = try decoder.container(keyedBy: CodingKeys.self)
            field = try k.decodeIfPresent(String.self, forKey: .field) ?? "resistance"
            output = try k.decodeIfPresent(String.self, forKey: .output) ?? "temperature"
            r0 = try k.decodeIfPresent(Double.self, forKey: .r0) ?? 100
            leadResistance = try k.decodeIfPresent(Double.self, forKey: .leadResistance) ?? 0
            unit = try k.decodeIfPresent(Unit.self, forKey: .unit) ?? .celsius
            a = try k.decodeIfPresent(Double.self, forKey: .a)
            b = try k.decodeIfPresent(Double.self, forKey: .b)
            c = try k.decodeIfPresent(Double.self, forKey: .c)
        }

        /// Checks the sensor's values; `daq` reports the key's line and column.
        public func validate() throws {
            if field.isEmpty { throw ConfigIssue(key: "field", "must not be empty") }
            if output.isEmpty { throw ConfigIssue(key: "output", "must not be empty") }
            if !(r0 > 0) || !r0.isFinite {
                throw ConfigIssue(key: "r0", "must be more than 0 Ω (100 for a Pt100), found \(r0)")
            }
            if !(leadResistance >= 0) || leadResistance >= r0 {
                throw ConfigIssue(
                    key: "lead_resistance", "must be 0 Ω or more and less than r0, found \(leadResistance)")
            }
            if let b, b == 0 { throw ConfigIssue(key: "b", "must not be 0: the equation would not be quadratic") }
        }

        var equation: CallendarVanDusen {
            var e = CallendarVanDusen(r0: r0)
            if let a { e.a = a }
            if let b { e.b = b }
            if let c { e.c = c }
            return e
        }
    }

    /// The `type:` in YAML.
    public static let typeName = "lab.rtd"
    public static let summary = "Pt100/Pt1000 resistance to temperature (Callendar–Van Dusen, IEC 60751)."
    public static let configKeys: [ConfigKey] = [
        ConfigKey("field", "string", default: "resistance", "The field holding the resistance in ohms."),
        ConfigKey("output", "string", default: "temperature", "The field the temperature is written to."),
        ConfigKey("r0", "double (Ω)", default: "100", "Resistance at 0 °C: 100 for a Pt100, 1000 for a Pt1000."),
        ConfigKey(
            "lead_resistance", "double (Ω)", default: "0", "Both leads' resistance, subtracted first (2-wire hookups)."),
        ConfigKey("unit", Unit.choices, default: "celsius", "The unit of the temperature written."),
        ConfigKey(
            "a", "double", default: "3.9083e-3", "Callendar–Van Dusen A, from the sensor's calibration certificate."),
        ConfigKey("b", "double", default: "-5.775e-7", "Callendar–Van Dusen B."),
        ConfigKey("c", "double", default: "-4.183e-12", "Callendar–Van Dusen C (below 0 °C only)."),
    ]

    private let config: Configuration
    private let equation: CallendarVanDusen
    private var outOfRange = 0

    /// Creates the transform.
    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        equation = configuration.equation
    }

    /// Adds the temperature column to a batch: one value per sample, `null` where there is none.
    public func process(_ batch: inout Batch, context: StageContext) throws {
        guard !batch.isEmpty else { return }
        let input = batch.column(config.field)
        var temperatures = [Value]()
        temperatures.reserveCapacity(batch.count)
        for i in 0..<batch.count {
            // Markers and events carry no reading; a null resistance is an overflow already flagged.
            guard batch.kinds[i] == .data, let ohms = input?.double(at: i) else {
                temperatures.append(.null)
                continue
            }
            if let t = equation.celsius(ohms: ohms - config.leadResistance) {
                temperatures.append(.double(config.unit.convert(t)))
            } else {
                if outOfRange == 0 {
                    context.warn(
                        "\(config.field) \(ohms) Ω is outside −200…850 °C for r0 \(config.r0) Ω: temperature null")
                }
                outOfRange += 1
                temperatures.append(.null)
            }
        }
        batch.setColumn(Column(name: config.output, values: temperatures))
    }

    /// Reports how many resistances were out of range; holds no samples.
    public func finish(context: StageContext) throws -> Batch {
        if outOfRange > 1 { context.warn("\(outOfRange) resistances were outside −200…850 °C: temperature null") }
        return Batch()
    }
}
