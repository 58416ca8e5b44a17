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

    /// The `lab.rtd` keys, each declared once: decoding and `daq plugins describe` read these.
    public struct Configuration: PluginConfiguration {
        @Setting("The field holding the resistance in ohms.") var field = "resistance"
        @Setting("The field the temperature is written to.") var output = "temperature"
        @Setting(type: "double (Ω)", "Resistance at 0 °C: 100 for a Pt100, 1000 for a Pt1000.") var r0 = 100.0
        @Setting(type: "double (Ω)", "Both leads' resistance, subtracted first (2-wire hookups).")
        var leadResistance = 0.0
        @Setting("The unit of the temperature written.") var unit = Unit.celsius
        // The IEC 60751 coefficients, unless a calibration certificate gives the sensor's own.
        @Setting("Callendar–Van Dusen A, from the sensor's calibration certificate.") var a = CallendarVanDusen.iec60751
            .a
        @Setting("Callendar–Van Dusen B.") var b = CallendarVanDusen.iec60751.b
        @Setting("Callendar–Van Dusen C (below 0 °C only).") var c = CallendarVanDusen.iec60751.c

        public init() {}

        /// Checks the sensor's values; `daq` reports the key's line and column.
        public func validate() throws {
            if field.isEmpty { throw $field.issue("must not be empty") }
            if output.isEmpty { throw $output.issue("must not be empty") }
            if !(r0 > 0) || !r0.isFinite {
                throw $r0.issue("must be more than 0 Ω (100 for a Pt100), found \(r0)")
            }
            if !(leadResistance >= 0) || leadResistance >= r0 {
                throw $leadResistance.issue("must be 0 Ω or more and less than r0, found \(leadResistance)")
            }
            if b == 0 { throw $b.issue("must not be 0: the equation would not be quadratic") }
        }

        var equation: CallendarVanDusen {
            var e = CallendarVanDusen(r0: r0)
            e.a = a
            e.b = b
            e.c = c
            return e
        }
    }

    /// The `type:` in YAML.
    public static let typeName = "lab.rtd"
    public static let summary = "Pt100/Pt1000 resistance to temperature (Callendar–Van Dusen, IEC 60751)."

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
