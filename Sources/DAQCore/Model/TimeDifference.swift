/// Relative times taken from absolute ones, without the noise of the subtraction.
///
/// An epoch time such as 1763800002.150 is stored to within a ulp of about 2.4e-7 s, so
/// `1763800002.150 - 1763800000.0` is 2.1500000953674316: digits the recording never had.
/// The difference is exact only to within half that ulp, so the shortest decimal inside that
/// interval is as true as the raw difference and reads as the recording wrote it (2.15).
public enum TimeDifference {
    /// `time - origin`, rounded to the fewest decimals that stay within the precision `time`
    /// and `origin` carry. Exact differences (small times, an origin of 0) come back unchanged.
    @inlinable
    public static func between(_ time: Double, _ origin: Double) -> Double {
        let raw = time - origin
        let tolerance = max(time.magnitude.ulp, origin.magnitude.ulp) / 2
        // Below a nanosecond the subtraction adds no noise worth hiding.
        guard raw.isFinite, tolerance > 1e-9 else { return raw }
        var scale = 1.0
        for _ in 0..<10 {
            let rounded = (raw * scale).rounded() / scale
            if (rounded - raw).magnitude <= tolerance { return rounded }
            scale *= 10
        }
        return raw
    }
}
