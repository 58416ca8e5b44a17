/// The Callendar–Van Dusen equation of a platinum resistance thermometer (IEC 60751):
///
///     R(t) = R0 · (1 + A·t + B·t² + C·(t − 100)·t³)     C = 0 for t ≥ 0 °C
///
/// and its inverse, which is what a lab needs: the meter gives ohms, the log wants degrees.
public struct CallendarVanDusen: Sendable, Equatable {
    /// Resistance at 0 °C in ohms: 100 for a Pt100, 1000 for a Pt1000.
    public var r0: Double
    /// The coefficients; the defaults are the IEC 60751 ones for α = 0.00385.
    public var a = 3.9083e-3, b = -5.775e-7, c = -4.183e-12

    /// A Pt100 with the IEC 60751 coefficients: where the configuration's defaults come from.
    public static let iec60751 = CallendarVanDusen(r0: 100)

    /// The temperatures IEC 60751 defines the equation for, in °C.
    public static let range = -200.0...850.0
    /// How far past the ends of ``range`` a result is still kept: a meter's rounding puts the
    /// table's 18.52 Ω at −200.0003 °C, which is a reading at the end, not outside.
    public static let rangeTolerance = 0.01

    /// Creates the equation of a sensor with resistance `r0` at 0 °C and IEC 60751 coefficients.
    public init(r0: Double) {
        self.r0 = r0
    }

    /// The resistance at `celsius`.
    public func resistance(celsius t: Double) -> Double {
        let cubic = t < 0 ? c * (t - 100) * t * t * t : 0
        return r0 * (1 + a * t + b * t * t + cubic)
    }

    /// The temperature in °C of resistance `ohms`, or `nil` when it lies outside ``range``
    /// (by more than ``rangeTolerance``).
    public func celsius(ohms r: Double) -> Double? {
        guard r.isFinite, r > 0 else { return nil }
        // At and above 0 °C the equation is a quadratic: solved exactly.
        let ratio = r / r0
        if ratio >= 1 {
            let t = (-a + (a * a - 4 * b * (1 - ratio)).squareRoot()) / (2 * b)
            return t.isFinite && t <= Self.range.upperBound + Self.rangeTolerance ? t : nil
        }
        // Below 0 °C the C term makes it a quartic: Newton's method from the quadratic's root,
        // which is within a few hundredths of a degree, converges in two or three steps.
        var t = (-a + (a * a - 4 * b * (1 - ratio)).squareRoot()) / (2 * b)
        guard t.isFinite else { return nil }
        for _ in 0..<20 {
            let f = resistance(celsius: t) - r
            let slope = r0 * (a + 2 * b * t + c * (4 * t * t * t - 300 * t * t))
            let step = f / slope
            t -= step
            if abs(step) < 1e-9 { break }
        }
        return t >= Self.range.lowerBound - Self.rangeTolerance ? t : nil
    }
}
