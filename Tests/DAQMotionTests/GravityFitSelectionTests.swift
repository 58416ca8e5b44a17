import Testing

@testable import DAQMotion

/// The quantile the calibration fit weights by, found by selection rather than a sort: the same
/// value numpy's default (linear interpolation between sorted neighbours) gives, on values with
/// and without ties, and the normal equations it solves give the exact line through exact data.
@Suite(.timeLimit(.minutes(20))) struct GravityFitSelectionTests {
    /// numpy's `quantile(values, q)` by its definition: sort, then interpolate.
    private func sortedQuantile(_ values: [Double], _ q: Double) -> Double {
        let sorted = values.sorted()
        let h = Double(sorted.count - 1) * q
        let lo = Int(h.rounded(.down))
        guard lo + 1 < sorted.count else { return sorted[lo] }
        return sorted[lo] + (h - Double(lo)) * (sorted[lo + 1] - sorted[lo])
    }

    @Test(arguments: [1, 2, 3, 10, 199, 200, 1000, 26_498])
    func selectionGivesTheSortedQuantile(count: Int) {
        var generator = SystemRandomNumberGenerator()
        let spread = (0..<count).map { _ in Double.random(in: 0..<0.05, using: &generator) }
        // Ties, as distances of windows measured alike are.
        let tied = (0..<count).map { _ in Double(Int.random(in: 0..<7, using: &generator)) / 100 }
        let ascending = (0..<count).map(Double.init)
        for values in [spread, tied, ascending, Array(ascending.reversed())] {
            for q in [0, 0.5, 0.9, 0.995, 1] {
                #expect(GravityFit.quantile(values, q) == sortedQuantile(values, q), "n \(count), q \(q)")
            }
        }
    }

    @Test func weightedLeastSquaresRecoversAnExactLineWithATemperatureTerm() {
        let x = (0..<50).map { Double($0) / 10 - 2.5 }
        let t = (0..<50).map { Double($0 % 7) - 3 }
        let y = zip(x, t).map { 0.03 + 1.02 * $0 - 0.001 * $1 }
        let w = (0..<50).map { $0 % 5 == 0 ? 0 : 1 + Double($0 % 3) }
        let p = GravityFit.leastSquares(w, x, t, y)!
        #expect(abs(p[0] - 0.03) < 1e-12 && abs(p[1] - 1.02) < 1e-12 && abs(p[2] + 0.001) < 1e-12)
        let line = GravityFit.leastSquares(w, x, nil, x.map { 0.5 - 2 * $0 })!
        #expect(line.count == 2 && abs(line[0] - 0.5) < 1e-12 && abs(line[1] + 2) < 1e-12)
        #expect(GravityFit.leastSquares([1, 1], [1, 1], nil, [2, 2]) == nil)
    }
}
