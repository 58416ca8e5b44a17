/// What a calibration against gravity found: the correction, how far the still windows' means
/// lay from the unit sphere before and after it, and whether it is good enough to apply.
public struct CalibrationFit: Sendable, Equatable {
    /// The correction fitted (the identity when none was).
    public var correction: AxisCorrection
    /// Mean distance of the still windows' means from the unit sphere before, mg; `nil` with
    /// too few windows to say.
    public var errorBefore: Double?
    /// The same after the correction, mg.
    public var errorAfter: Double?
    /// Still windows the fit used.
    public var stillWindows: Int
    /// Rounds of the weighted fit made.
    public var iterations: Int
    /// Whether the correction is applied: the error after is under the limit and every axis
    /// had still windows beyond ±`cube` g.
    public var accepted: Bool
    /// Why it was or was not accepted, for people.
    public var reason: String
}

/// The auto-calibration of van Hees et al. (2014) as actipy 3.8 and the `accelerometer` package
/// carry it out (GGIR's `g.calibrate` is the same method with other details): fit each axis's
/// offset and gain (and a temperature slope) so that the means of still windows, which measure
/// gravity alone, lie on the unit sphere.
///
/// Each round takes each mean's closest point on the sphere (the mean scaled to length 1) as its
/// target and fits every axis by weighted least squares, target = a + b·current (+ c·T), so the
/// correction composes round by round. Weights are max(0, 1 − e / e₉₉.₅) with e the distance
/// to the sphere: the worst half percent count for nothing. Rounds stop when the mean distance
/// improves by under 0.01 %; the best round is kept. As actipy does (where van Hees used the
/// RMS), the error is the mean distance, and a device already within the limit is left as it is.
enum GravityFit {
    /// The most rounds; a fit still going then is not accepted.
    static let maxIterations = 1000
    /// The relative improvement under which the rounds stop.
    static let improvementTolerance = 0.0001

    /// Fits `points`.
    /// - Parameters:
    ///   - cube: every axis needs still means beyond +cube and −cube g.
    ///   - limit: the largest error after, g, for the fit to be accepted.
    ///   - minimum: the fewest still windows to try a fit with.
    ///   - temperature: fit the temperature term, when every point has a temperature and they
    ///     span at least 0.1 °C (a constant temperature says nothing about its effect).
    static func fit(
        _ raw: [StillPoint], cube: Double, limit: Double, minimum: Int, temperature: Bool
    ) -> CalibrationFit {
        let points = raw.filter {
            $0.x.isFinite && $0.y.isFinite && $0.z.isFinite && ($0.x * $0.x + $0.y * $0.y + $0.z * $0.z) > 1e-16
        }
        var fit = CalibrationFit(
            correction: .identity, errorBefore: nil, errorAfter: nil, stillWindows: points.count, iterations: 0,
            accepted: false, reason: "")
        guard points.count >= minimum, points.count > 0 else {
            fit.reason = "\(points.count) still windows, fewer than the \(minimum) a fit needs"
            return fit
        }
        let n = points.count
        let raw = [points.map(\.x), points.map(\.y), points.map(\.z)]
        let temps = points.map(\.t)
        let spread = (temps.max() ?? 0) - (temps.min() ?? 0)
        let useT = temperature && temps.allSatisfy(\.isFinite) && spread >= 0.1
        let reference = useT ? temps.reduce(0, +) / Double(n) : 0
        let centred = useT ? temps.map { $0 - reference } : []

        var current = raw
        var errors = [Double](repeating: 0, count: n)
        var target = raw
        func measure() -> Double { distances(current, targets: &target, errors: &errors) }
        let initial = measure()
        fit.errorBefore = initial * 1000
        fit.errorAfter = initial * 1000
        for k in 0..<3 where raw[k].max()! < cube || raw[k].min()! > -cube {
            let axis = ["x", "y", "z"][k]
            fit.reason =
                "the still windows do not cover enough orientations: none has \(axis) beyond \(raw[k].max()! < cube ? "+" : "−")\(cube) g"
            return fit
        }
        if initial < limit {
            fit.accepted = true
            fit.reason = "already within \(limit * 1000) mg: left as it is"
            return fit
        }
        var offset = [0.0, 0.0, 0.0]
        var gain = [1.0, 1.0, 1.0]
        var slope = [0.0, 0.0, 0.0]
        var best = (error: Double.infinity, correction: AxisCorrection.identity)
        var weights = [Double](repeating: 0, count: n)
        for round in 1...maxIterations {
            fit.iterations = round
            let worst = quantile(errors, 0.995)
            for i in 0..<n { weights[i] = worst > 0 ? max(1 - errors[i] / worst, 0) : 1 }
            for k in 0..<3 {
                guard let p = leastSquares(weights, current[k], useT ? centred : nil, target[k]) else {
                    fit.reason = "the weighted fit of axis \(["x", "y", "z"][k]) is singular"
                    return fit
                }
                offset[k] = p[0] + offset[k] * p[1]
                gain[k] = p[1] * gain[k]
                if useT { slope[k] = p[2] + slope[k] * p[1] }
            }
            for k in 0..<3 {
                var axis = current[k]
                current[k] = []  // `axis` the only owner while it is rewritten
                let (from, a, b, c) = (raw[k], offset[k], gain[k], slope[k])
                for i in 0..<n { axis[i] = a + from[i] * b + (useT ? centred[i] * c : 0) }
                current[k] = axis
            }
            let error = measure()
            let improvement = (best.error - error) / best.error
            if error < best.error {
                best = (error, AxisCorrection(offset: offset, gain: gain, temperature: slope, reference: reference))
            }
            if improvement < improvementTolerance { break }
        }
        fit.correction = best.correction
        fit.errorAfter = best.error * 1000
        if best.error >= limit {
            fit.reason = "the error after, \(roundedText(best.error * 1000)) mg, is not under \(limit * 1000) mg"
        } else if fit.iterations >= maxIterations {
            fit.reason = "the fit did not settle in \(maxIterations) rounds"
        } else {
            fit.accepted = true
            fit.reason = "fitted"
        }
        return fit
    }

    /// Each point's closest point on the unit sphere (into `targets`) and its distance from it
    /// (into `errors`), for points given as three axis arrays; returns the mean distance.
    static func distances(_ points: [[Double]], targets: inout [[Double]], errors: inout [Double]) -> Double {
        let (xs, ys, zs) = (points[0], points[1], points[2])
        var (tx, ty, tz) = (targets[0], targets[1], targets[2])
        targets = []  // the three arrays the only owners while they are written
        var total = 0.0
        for i in xs.indices {
            let (x, y, z) = (xs[i], ys[i], zs[i])
            let norm = (x * x + y * y + z * z).squareRoot()
            (tx[i], ty[i], tz[i]) = (x / norm, y / norm, z / norm)
            let (dx, dy, dz) = (x - tx[i], y - ty[i], z - tz[i])
            var e = 0.0
            e += dx * dx
            e += dy * dy
            e += dz * dz
            errors[i] = e.squareRoot()
            total += errors[i]
        }
        targets = [tx, ty, tz]
        return total / Double(xs.count)
    }

    /// The `q` quantile with linear interpolation between order statistics (numpy's default).
    /// The two order statistics are selected, not sorted for: the fit takes one every round.
    static func quantile(_ values: [Double], _ q: Double) -> Double {
        var scratch = values
        let h = Double(scratch.count - 1) * q
        let lo = Int(h.rounded(.down))
        let low = select(lo, in: &scratch)
        guard lo + 1 < scratch.count else { return low }
        // After the selection everything past `lo` is at least as large: the next statistic is their least.
        let high = scratch[(lo + 1)...].min()!
        return low + (h - Double(lo)) * (high - low)
    }

    /// The `k`th smallest of `a` (from 0), leaving it at index `k` with nothing larger before it
    /// and nothing smaller after it (Hoare's selection with the median of three as pivot).
    static func select(_ k: Int, in a: inout [Double]) -> Double {
        var (lo, hi) = (0, a.count - 1)
        while lo < hi {
            let mid = lo + (hi - lo) / 2
            if a[mid] < a[lo] { a.swapAt(mid, lo) }
            if a[hi] < a[lo] { a.swapAt(hi, lo) }
            if a[hi] < a[mid] { a.swapAt(hi, mid) }
            let pivot = a[mid]
            var (i, j) = (lo, hi)
            while i <= j {
                while a[i] < pivot { i += 1 }
                while pivot < a[j] { j -= 1 }
                if i <= j {
                    a.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j {
                hi = j
            } else if k >= i {
                lo = i
            } else {
                return a[k]
            }
        }
        return a[k]
    }

    /// The weighted least-squares `[a, b, (c)]` of `y ≈ a + b·x (+ c·t)`; `nil` when singular.
    static func leastSquares(_ w: [Double], _ x: [Double], _ t: [Double]?, _ y: [Double]) -> [Double]? {
        let m = t == nil ? 2 : 3
        // The normal equations' sums, each term w·row[r]·row[c] as the matrix form multiplies it.
        var (s0, sx, st, sy) = (0.0, 0.0, 0.0, 0.0)
        var (sxx, sxt, stx, stt, sxy, sty) = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        for i in 0..<w.count where w[i] > 0 {
            let wi = w[i]
            let (xi, yi) = (x[i], y[i])
            s0 += wi
            sx += wi * xi
            sy += wi * yi
            sxx += wi * xi * xi
            sxy += wi * xi * yi
            if let t {
                let ti = t[i]
                st += wi * ti
                sxt += wi * xi * ti
                stx += wi * ti * xi
                stt += wi * ti * ti
                sty += wi * ti * yi
            }
        }
        var a: [[Double]] =
            m == 2
            ? [[s0, sx, sy], [sx, sxx, sxy]]
            : [[s0, sx, st, sy], [sx, sxx, sxt, sxy], [st, stx, stt, sty]]
        // Gaussian elimination with partial pivoting on the normal equations.
        for col in 0..<m {
            let pivot = (col..<m).max { abs(a[$0][col]) < abs(a[$1][col]) }!
            guard abs(a[pivot][col]) > 1e-300 else { return nil }
            a.swapAt(col, pivot)
            for r in 0..<m where r != col {
                let f = a[r][col] / a[col][col]
                for c in col...m { a[r][c] -= f * a[col][c] }
            }
        }
        return (0..<m).map { a[$0][m] / a[$0][$0] }
    }

    /// `value` with at most three decimals, for messages.
    static func roundedText(_ value: Double) -> String {
        String((value * 1000).rounded() / 1000)
    }
}
