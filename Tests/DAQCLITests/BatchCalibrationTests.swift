import DAQCore
import DAQKit
import DAQTesting
import Foundation
import Testing

@testable import DAQCLI

/// `daq batch` with `calibration: auto`: every recording gets its own first pass and its own fit,
/// recorded in its own run's manifest.
@Suite("daq batch calibrates each recording", .timeLimit(.minutes(20)))
struct BatchCalibrationTests {
    /// An AX6 held still in six faces and two diagonals for 60 s each, read through `offset`
    /// and a gain of 1.02 on every axis, with seeded noise of ±2 mg.
    static func recording(_ path: String, offset: [Double]) throws {
        let faces: [(Double, Double, Double)] = [
            (1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0), (0, 0, 1), (0, 0, -1), (0.6, 0.48, 0.64),
            (-0.6, -0.48, -0.64),
        ]
        var w = CWAWriter()
        w.device = .ax6
        w.seconds = 480
        w.counts = { n in
            let g = faces[n / 6000]
            func raw(_ k: Int, _ v: Double) -> Int {
                let seed = UInt64(n * 3 + k) &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                let noise = 0.004 * (Double(seed >> 11) / Double(1 << 53) - 0.5)
                return Int(((v - offset[k]) / 1.02 * 4096 + noise * 4096).rounded())
            }
            return (raw(0, g.0), raw(1, g.1), raw(2, g.2))
        }
        try w.write(to: path)
    }

    @Test func eachRecordingGetsItsOwnFit() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-batch-cal-\(UUID().uuidString)")
            .path
        try FileManager.default.createDirectory(atPath: dir + "/in", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let offsets = ["a": [0.02, -0.03, 0.01], "b": [-0.04, 0.015, 0.025]]
        for (name, offset) in offsets { try Self.recording("\(dir)/in/\(name).cwa", offset: offset) }
        let pipeline = dir + "/cal.yaml"
        try """
        name: cal
        clock: virtual
        sources:
          accel: {type: motion.replay, path: in.cwa}
        transforms:
          cal: {type: motion.calibrate, inputs: [accel], min_windows: 5}
        sinks:
          log: {type: logger.csv, inputs: [cal], directory: out}
        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        let registry = try PluginRegistry(BuiltinPlugins.all)
        let spec = try PipelineLoader(registry: registry, environment: [:]).load(file: pipeline)
        let plan = try BatchPlan(spec: spec, inputs: ["\(dir)/in/*.cwa"], output: "\(dir)/out", source: nil)
        let results = BatchRunner(plan: plan, registry: registry, overrides: [], pipeline: pipeline, jobs: 2).runAll()
        #expect(results.map(\.status) == [.finished, .finished], "\(results)")
        for (name, offset) in offsets {
            let base = "\(dir)/out/\(name)"
            let run = try #require(
                try FileManager.default.contentsOfDirectory(atPath: base).first { $0.hasPrefix("cal-") },
                "no run of \(name)")
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(base)/\(run)/manifest.json"))
            guard case .object(let m) = try JSONParser.parse([UInt8](data)), case .object(let results)? = m["results"],
                case .object(let fit)? = results["cal"], case .array(let found)? = fit["offset"]
            else {
                Issue.record("no calibration in \(name)'s manifest")
                continue
            }
            #expect(fit["accepted"] == .bool(true), "\(fit)")
            let values = found.compactMap(\.doubleValue)
            try #require(values.count == 3)
            for k in 0..<3 { #expect(abs(values[k] - offset[k]) < 0.001, "\(name) axis \(k): \(values[k]) g") }
        }
    }
}
