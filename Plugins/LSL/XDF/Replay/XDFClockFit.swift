/// The straight line through a stream's clock offsets that pyxdf fits: offset ≈ intercept +
/// slope × time, by a Huber-loss regression solved with ADMM (Boyd et al., "Distributed
/// optimization and statistical learning via ADMM", §6.1.1), 1,000 iterations at ρ = 1, on
/// values scaled by the winsor threshold (0.1 ms) so that offsets further than that from the
/// line weigh linearly, not quadratically.
///
/// The same iterations as pyxdf's `_robust_fit` (pyxdf 1.17.5), so both give the same line to
/// rounding: the design matrix is 2 columns wide, so its normal equations are solved in closed
/// form here.
enum XDFClockFit {
    static let winsorThreshold = 0.0001

    /// The intercept and slope; `nil` when the times do not determine a line (all equal): the
    /// normal matrix is then singular, and pyxdf, whose Cholesky factorisation fails there,
    /// leaves the stream's time stamps as they are.
    static func fit(times: ArraySlice<Double>, values: ArraySlice<Double>) -> (intercept: Double, slope: Double)? {
        let w = winsorThreshold
        let n = times.count
        // The second column, shifted to start at 0 for a better conditioned system.
        var a = times.map { $0 / w }
        let shift = a.min() ?? 0
        for i in a.indices { a[i] -= shift }
        let y = values.map { $0 / w }
        // AᵀA = [[n, Σa], [Σa, Σa²]], factored as L Lᵀ.
        var sa = 0.0
        var saa = 0.0
        var aty0 = 0.0
        var aty1 = 0.0
        for i in 0..<n {
            sa += a[i]
            saa += a[i] * a[i]
            aty0 += y[i]
            aty1 += a[i] * y[i]
        }
        let l00 = Double(n).squareRoot()
        let l10 = sa / l00
        let pivot = saa - l10 * l10
        guard l00 > 0, pivot > 0, pivot.isFinite else { return nil }
        let l11 = pivot.squareRoot()
        var z = [Double](repeating: 0, count: n)
        var u = [Double](repeating: 0, count: n)
        var x0 = 0.0
        var x1 = 0.0
        let rho = 1.0
        for _ in 0..<1000 {
            // x = (AᵀA)⁻¹ (Aᵀy + Aᵀ(z − u)): forward then back substitution.
            var s0 = 0.0
            var s1 = 0.0
            for i in 0..<n {
                let r = z[i] - u[i]
                s0 += r
                s1 += a[i] * r
            }
            let b0 = aty0 + s0
            let b1 = aty1 + s1
            let f0 = b0 / l00
            let f1 = (b1 - l10 * f0) / l11
            x1 = f1 / l11
            x0 = (f0 - l10 * x1) / l00
            for i in 0..<n {
                let d = x0 + a[i] * x1 - y[i] + u[i]
                let inverse = d != 0 ? 1 / d : 0
                let shrink = Swift.max(0, 1 - (1 + 1 / rho) * abs(inverse))
                let zi = rho / (1 + rho) * d + 1 / (1 + rho) * shrink * d
                z[i] = zi
                u[i] = d - zi
            }
        }
        x0 -= x1 * shift
        return (x0 * w, x1)
    }
}
