import DAQCore
import DAQStandard
import DAQTesting
import Foundation
import Testing

@Suite("Standard sources and sinks", .timeLimit(.minutes(20)))
struct SourceSinkTests {
    func temp(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("daq-\(UUID().uuidString)-\(name)").path
    }

    @Test(arguments: GeneratorSource.Signal.allCases)
    func generatorStampsSampleIAtIOverRate(_ signal: GeneratorSource.Signal) throws {
        let h = try SourceHarness(GeneratorSource.self, config: "signal: \(signal.rawValue)\nrate: 50\ncount: 120")
        let (samples, status) = try h.read(batchSize: 32)
        #expect(status == .finished)
        #expect(samples.count == 120)
        #expect(samples[49].uptime == 49.0 / 50)
        #expect(samples.map { $0["seq"]!.intValue! } == Array(0..<120))
        #expect(samples.allSatisfy { ($0["value"]?.doubleValue).map { abs($0) <= 120 } ?? false })
    }

    @Test(arguments: ["jsonl", "csv"])
    func fileSinkOutputReadsBackAsTheSameSamples(_ format: String) throws {
        let path = temp("round.\(format)")
        let yaml = """
            clock: virtual
            steps: [{path: one, at: 0}, {path: two, at: 0.5}]
            sources: {gen: {type: generator, signal: noise, rate: 10, count: 10}}
            sinks:
              file: {type: file, inputs: [gen], path: "\(path)"}
              mem: {type: collect, inputs: [gen]}
            """
        let written = try PipelineHarness.run(yaml: yaml, plugins: StandardPlugins.all)
        let h = try SourceHarness(FileSource.self, config: "path: \(path)")
        let (back, _) = try h.read()
        let original = written.collected["mem"]!
        #expect(back.count == original.count)
        for (a, b) in zip(back, original) {
            #expect(a.uptime == b.uptime && a.stepPath == b.stepPath && a.kind == b.kind)
            if a.kind == .data { #expect(a["value"] == b["value"] && a["seq"] == b["seq"]) }
        }
        try? FileManager.default.removeItem(atPath: path)
    }

    /// Sent and delivered count the same rows, markers written or left out, CSV or JSON Lines,
    /// and markers held until the first data fixes the columns: a gap would read as loss.
    @Test(arguments: ["jsonl", "csv"], [true, false])
    func fileSinkDeliversExactlyWhatItSends(_ format: String, _ markers: Bool) throws {
        let path = temp("sent.\(format)")
        let yaml = """
            clock: virtual
            steps: [{path: one, at: 0}, {path: two, at: 0.5}]
            sources: {gen: {type: generator, rate: 10, count: 10}}
            sinks: {file: {type: file, inputs: [gen], path: "\(path)", markers: \(markers)}}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: StandardPlugins.all)
        let stats = try #require(outcome.result.stages.first { $0.name == "file" })
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let rows = text.split(separator: "\n").count - (format == "csv" ? 1 : 0)
        // 10 samples, and with markers those at start, at the step to `two` and at stop.
        #expect(rows == (markers ? 13 : 10))
        #expect(stats.sent == rows && stats.delivered == rows && stats.failed == 0)
        try? FileManager.default.removeItem(atPath: path)
    }

    @Test func badRowsFailWithFileAndLineOrAreSkippedAndReported() throws {
        let path = temp("bad.csv")
        try "t,x\n0,1\n0.1,oops,3\n0.2,2\n".write(toFile: path, atomically: true, encoding: .utf8)
        let failing = try SourceHarness(FileSource.self, config: "path: \(path)\ntime_field: t")
        #expect { try failing.read() } throws: { "\($0)" == "\(path):3: expected 2 cells as in the header, found 3" }
        let skipping = try SourceHarness(FileSource.self, config: "path: \(path)\ntime_field: t\non_bad_row: skip")
        let (samples, _) = try skipping.read()
        #expect(samples.map { $0["x"]!.intValue! } == [1, 2])
        #expect(samples.map(\.uptime) == [0, 0.2])
        #expect(
            skipping.events.contains {
                if case .warning(_, let m) = $0 { return m.contains("bad.csv:3") } else { return false }
            })
    }

    @Test func missingFilesAndDirectoriesFailToStartWithTheirPath() {
        #expect { _ = try SourceHarness(FileSource.self, config: "path: /nonexistent/x.csv") } throws: {
            "\($0)".contains("/nonexistent/x.csv") && "\($0)".contains("No such file")
        }
        #expect { _ = try SourceHarness(FileSource.self, config: "path: /tmp") } throws: {
            "\($0)".contains("is a directory")
        }
    }
}
