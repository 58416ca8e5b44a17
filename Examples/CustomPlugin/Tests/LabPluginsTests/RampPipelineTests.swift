import DAQCore
import DAQStandard
import DAQTesting
import Foundation
import LabPlugins
import Testing

/// The shipped pipeline, run in-process on the virtual clock, with the lab plugins and the
/// built-in `file` sink together: the tests need DAQStandard, not all of DAQKit.
@Suite("pipelines/pt100-ramp.yaml")
struct RampPipelineTests {
    @Test func recoversTheRampFromTheMetersReadings() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("pt100-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: output) }
        let yaml = try String(contentsOfFile: Fixtures.pipeline, encoding: .utf8)
        let outcome = try PipelineHarness.run(
            yaml: yaml, plugins: StandardPlugins.all + LabPlugins.all,
            environment: ["INPUT": Fixtures.ramp, "OUTPUT": output.path], overrides: ["clock=virtual"])
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        let rows = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
            .map { try JSONParser.parse(Array($0.utf8)) }
        #expect(rows.count == 121)
        var temperatures = 0
        for row in rows {
            guard case .object(let f) = row else {
                Issue.record("not an object: \(row)")
                continue
            }
            let uptime = try #require(f["uptime"]?.doubleValue)
            if f["overflow"] == true {
                #expect(f["temperature"] == .null)
                continue
            }
            // The recording is a ramp from −10 °C at 1 °C/s.
            let t = try #require(f["temperature"]?.doubleValue)
            #expect(abs(t - (-10 + uptime)) < 1e-4, "at \(uptime) s: \(t) °C")
            temperatures += 1
        }
        #expect(temperatures == 120)
    }
}
