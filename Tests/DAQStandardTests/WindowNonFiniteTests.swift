import DAQCore
import DAQStandard
import DAQTesting
import Testing

/// A NaN or infinite value in a window leaves its mean, min, max and std as the other values
/// make them, and is reported.
@Suite(.timeLimit(.minutes(20))) struct WindowNonFiniteTests {
    @Test func nanAndInfAreLeftOutOfTheStatisticsAndCounted() throws {
        let h = try TransformHarness(
            WindowTransform.self, config: "size: 1\nfield: x\nstats: [count, mean, min, max, std]")
        let xs: [Double] = [1, .infinity, 3, .nan, -.infinity]
        let samples = xs.enumerated().map { i, x in
            Sample(timestamp: 0, uptime: 0.1 * Double(i + 1), fields: ["x": .double(x)])
        }
        var out = try h.push(samples)
        out += try h.finish()
        let window = try #require(out.first)
        #expect(window["count"] == .int(5))
        #expect(window["x_mean"] == .double(2) && window["x_min"] == .double(1) && window["x_max"] == .double(3))
        #expect(window["x_std"]?.doubleValue.map { abs($0 - 2.0.squareRoot()) < 1e-12 } == true)
        let warnings = h.events.compactMap { if case .warning(_, let m) = $0 { m } else { nil } }
        #expect(warnings.count == 3)
        #expect(warnings.first == "x is NaN or inf at uptime 0.2 s: left out of its windows' mean, min, max and std")
    }
}
