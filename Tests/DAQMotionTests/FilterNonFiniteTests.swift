import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// One NaN in the walk (`nan: keep`) through the first-order filters: the filtered value of
/// that sample is null, the ones after it are finite again, and the NaN is counted.
@Suite(.timeLimit(.minutes(20))) struct FilterNonFiniteTests {
    static let nanRow = 2000

    /// The walk with x of one row replaced by NaN.
    static func walkWithNaN() throws -> String {
        var lines = try String(contentsOfFile: Walk.path, encoding: .utf8).split(separator: "\n").map(String.init)
        var cells = lines[nanRow + 1].split(separator: ",").map(String.init)
        cells[1] = "NaN"
        lines[nanRow + 1] = cells.joined(separator: ",")
        return recording("walk.csv", lines.joined(separator: "\n") + "\n")
    }

    @Test(arguments: ["alpha: 0.1", "cutoff_hz: 0.5"])
    func theOutputsAfterANaNAreFiniteAgain(setting: String) throws {
        let path = try Self.walkWithNaN()
        let yaml = """
            clock: virtual
            sources: {accel: {type: motion.replay, path: "\(path)", nan: keep}}
            transforms:
              hp: {type: motion.highpass, inputs: [accel], \(setting)}
              lp: {type: motion.lowpass, inputs: [hp], \(setting)}
            sinks: {out: {type: collect, inputs: [lp]}}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all)
        #expect(outcome.result.state == .finished)
        let data = outcome.data("out")
        #expect(data.count == 6000)
        #expect(data[Self.nanRow]["x_hp"] == .null && data[Self.nanRow]["x_lp"] == .null)
        for name in ["x_hp", "x_lp", "y_hp", "y_lp", "z_hp", "z_lp"] {
            let after = data[(Self.nanRow + 1)...].map { $0[name]?.doubleValue }
            #expect(after.allSatisfy { $0?.isFinite == true }, "\(name) after the NaN")
        }
        // Both filter x (the high-pass adds x_hp beside it): each meets the NaN once, and counts it.
        let warnings = outcome.events.compactMap { if case .warning(let c, let m) = $0 { "\(c): \(m)" } else { nil } }
        let at = String((data[Self.nanRow].uptime * 1000).rounded() / 1000)
        #expect(
            warnings
                == ["hp", "lp"].map {
                    "\($0): x is NaN at uptime \(at) s: x_\($0) is null there, and the filter goes on from the last finite input"
                },
            "\(warnings)")
        #expect(outcome.result.stages.filter { $0.kind == .transform }.map(\.errors) == [1, 1])
    }

    @Test func theStateIsAsTheLastFiniteInputLeftIt() throws {
        // Low-pass with alpha 0.5: 0, 2, NaN, 4 → 0, 1, null, 2.5 (from 1, as if the NaN were not there).
        let h = try TransformHarness(LowpassTransform.self, config: "field: x\nalpha: 0.5")
        let out = try h.push(
            [0.0, 2, .nan, 4].enumerated().map { i, x in
                Sample(timestamp: Double(i), uptime: Double(i), fields: ["x": .double(x)])
            })
        #expect(out.map { $0["x_lp"] } == [.double(0), .double(1), .null, .double(2.5)])
    }
}

/// Resampling across a NaN: the points between it and its neighbours are null, the ones after
/// interpolate as before, and the NaN is counted.
@Suite(.timeLimit(.minutes(20))) struct ResampleNonFiniteTests {
    @Test func onlyThePointsNextToANaNAreNull() throws {
        let h = try TransformHarness(ResampleTransform.self, config: "rate: 20")
        let xs: [Double] = [0, 1, .nan, 3, 4]
        let input = xs.enumerated().map { i, x in
            Sample(timestamp: Double(i) / 10, uptime: Double(i) / 10, fields: ["x": .double(x)])
        }
        let out = try h.push(input) + h.finish()
        let values = out.map { $0["x"]?.doubleValue }
        let expected: [Double?] = [0, 0.5, nil, nil, nil, nil, 3, 3.5, 4]
        #expect(values.count == expected.count, "\(values)")
        #expect(
            zip(values, expected).allSatisfy { a, b in a == nil ? b == nil : b.map { close(a!, $0) } == true },
            "\(values)")
        let warnings = h.events.compactMap { if case .warning(_, let m) = $0 { m } else { nil } }
        #expect(warnings == ["x is NaN at uptime 0.2 s: the outputs between it and its neighbours are null"])
    }
}
