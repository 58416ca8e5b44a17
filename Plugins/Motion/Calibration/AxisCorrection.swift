/// A per-axis linear correction of an accelerometer against gravity:
/// `calibrated = offset + gain × raw + temperature × (T − reference)`, each axis on its own,
/// in g (the temperature term in g/°C). This is the model actipy and the `accelerometer`
/// package fit (intercept, slope and temperature slope), with the temperature centred on the
/// still windows' mean so the offset stays the offset at the usual temperature.
public struct AxisCorrection: Sendable, Equatable {
    /// Added to each axis, g.
    public var offset: [Double]
    /// Each axis multiplied by.
    public var gain: [Double]
    /// Each axis changes by this much per °C away from ``reference``, g/°C.
    public var temperature: [Double]
    /// The temperature at which the temperature term is 0, °C.
    public var reference: Double

    /// The correction that changes nothing.
    public static let identity = AxisCorrection(offset: [0, 0, 0], gain: [1, 1, 1])

    /// Creates a correction; without a temperature term unless `temperature` is given.
    public init(offset: [Double], gain: [Double], temperature: [Double] = [0, 0, 0], reference: Double = 0) {
        self.offset = offset
        self.gain = gain
        self.temperature = temperature
        self.reference = reference
    }

    /// Whether the correction has a temperature term.
    public var usesTemperature: Bool { temperature.contains { $0 != 0 } }

    /// Axis `k` of a sample corrected; `t` is its temperature (ignored without a term).
    @inline(__always)
    func apply(_ value: Double, axis k: Int, temperature t: Double) -> Double {
        let corrected = offset[k] + gain[k] * value
        return temperature[k] == 0 ? corrected : corrected + temperature[k] * (t - reference)
    }
}
