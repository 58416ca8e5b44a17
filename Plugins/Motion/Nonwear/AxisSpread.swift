/// The spread of one axis over a block of samples: their count, sums for the standard
/// deviation, lowest and highest value.
///
/// Values are summed shifted by the block's first one, so the squares of small deviations from
/// a large mean (1 g on a still axis) keep their digits.
struct AxisSpread {
    private(set) var count = 0
    private var shift = 0.0
    /// Σ(v − shift) and Σ(v − shift)².
    private var sum = 0.0
    private var squares = 0.0
    private(set) var low = Double.infinity
    private(set) var high = -Double.infinity

    @inline(__always)
    mutating func add(_ v: Double) {
        if count == 0 { shift = v }
        let d = v - shift
        count += 1
        sum += d
        squares += d * d
        if v < low { low = v }
        if v > high { high = v }
    }

    /// The mean, and the sum of squared deviations from it.
    var moments: (mean: Double, m2: Double) {
        guard count > 0 else { return (0, 0) }
        let n = Double(count)
        return (shift + sum / n, max(0, squares - sum * sum / n))
    }
}

/// The spread of one axis over a window: the blocks' spreads merged with Chan et al.'s pairwise
/// update, so a window costs one merge per block, not a pass over its samples.
struct WindowSpread {
    private(set) var count = 0
    private var mean = 0.0
    private var m2 = 0.0
    private var low = Double.infinity
    private var high = -Double.infinity

    mutating func merge(_ block: AxisSpread) {
        guard block.count > 0 else { return }
        let (bMean, bM2) = block.moments
        let na = Double(count)
        let nb = Double(block.count)
        let n = na + nb
        let delta = bMean - mean
        mean += delta * nb / n
        m2 += bM2 + delta * delta * na * nb / n
        count += block.count
        low = min(low, block.low)
        high = max(high, block.high)
    }

    /// Whether the axis kept still: its sample standard deviation (n − 1, as R's `sd`) under
    /// `sd` and its range under `range`, both in g. Fewer than two samples have no deviation.
    func isStill(sd: Double, range: Double) -> Bool {
        guard count >= 2 else { return false }
        return (m2 / Double(count - 1)).squareRoot() < sd && high - low < range
    }
}
