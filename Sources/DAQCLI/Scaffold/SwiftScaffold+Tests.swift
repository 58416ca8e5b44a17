// The tests and the example pipeline of a Swift scaffold, one of each per kind. The tests use
// DAQTesting on the virtual clock and run the example pipeline, so a generated package checks
// its plugin alone and wired to built-in ones.
extension SwiftScaffold {
    var tests: String {
        #"""
        import DAQCore
        import DAQStandard
        import DAQTesting
        import Foundation
        import Testing
        import \#(name.module)

        @Suite("\#(name.typeName)")
        struct \#(type)Tests {
        \#(kindTests)
            @Test func theExamplePipelineRuns() throws {
                let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                    .deletingLastPathComponent()
                let yaml = try String(contentsOf: folder.appendingPathComponent("pipelines/\#(name.typeName).yaml"), encoding: .utf8)
                let output = FileManager.default.temporaryDirectory.appendingPathComponent("\#(name.typeName)-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: output) }
                let outcome = try PipelineHarness.run(
                    yaml: yaml, plugins: StandardPlugins.all + \#(name.camel)Plugins.all, environment: ["OUTPUT": output.path])
                #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
                let lines = try String(contentsOf: output, encoding: .utf8).split(separator: "\n")
                #expect(lines.count == \#(kind == .sink ? "21" : "20"))\#(kind == .sink ? "  // a header and 20 samples" : "")
            }
        }

        """#
    }

    private var kindTests: String {
        switch kind {
        case .source:
            return #"""
                    @Test func producesCountSamplesOnTheRunClock() throws {
                        let h = try SourceHarness(\#(type).self, config: "rate: 4\ncount: 6\nstep: 0.5")
                        let (samples, status) = try h.read(batchSize: 4)
                        h.stop()
                        #expect(status == .finished)
                        #expect(samples.map(\.uptime) == [0, 0.25, 0.5, 0.75, 1, 1.25])
                        #expect(samples.map { $0["value"] } == [0.0, 0.5, 1.0, 1.5, 2.0, 2.5])
                    }

                    @Test(arguments: ["rate: 0", "rate: -1", "count: -1"])
                    func refusesInvalidConfiguration(_ yaml: String) {
                        #expect(throws: ConfigIssue.self) { try PluginConfigLoader.decode(\#(type).Configuration.self, yaml: yaml) }
                    }

                """#
        case .transform:
            return #"""
                    @Test func calibratesTheFieldAndKeepsOtherSamples() throws {
                        let h = try TransformHarness(\#(type).self, config: "scale: 2\noffset: -1\noutput: calibrated")
                        let out = try h.push([
                            Sample(uptime: 0, fields: ["value": 1.5]),
                            Sample(uptime: 1, fields: ["value": .int(4)]),
                            Sample(uptime: 2, fields: ["value": "n/a"]),
                        ])
                        #expect(out.map { $0["calibrated"] } == [2.0, 7.0, .null])
                        #expect(out.map { $0["value"] } == [1.5, .int(4), "n/a"])
                    }

                    @Test(arguments: ["field: ''", "output: ''", "scale: .inf"])
                    func refusesInvalidConfiguration(_ yaml: String) {
                        #expect(throws: ConfigIssue.self) { try PluginConfigLoader.decode(\#(type).Configuration.self, yaml: yaml) }
                    }

                """#
        case .sink:
            return #"""
                    @Test func writesOneLinePerDataSample() throws {
                        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\#(name.typeName)-\(UUID().uuidString).tsv").path
                        defer { try? FileManager.default.removeItem(atPath: path) }
                        let yaml = """
                            clock: virtual
                            steps: [{ path: warm-up, at: 0 }]
                            sources:
                              wave: { type: generator, signal: counter, rate: 2, count: 3 }
                            sinks:
                              out: { type: \#(name.typeName), inputs: [wave], path: "\(path)", fields: [value, seq, missing] }
                            """
                        let outcome = try PipelineHarness.run(yaml: yaml, plugins: StandardPlugins.all + \#(name.camel)Plugins.all)
                        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
                        // The step markers the run writes at start and stop are not data: no line for them.
                        let text = try String(contentsOfFile: path, encoding: .utf8)
                        #expect(text == "uptime\tvalue\tseq\tmissing\n0.0\t0.0\t0\t\n0.5\t1.0\t1\t\n1.0\t2.0\t2\t\n")
                        let delivered = outcome.events.reduce(0) { n, e in
                            if case .delivered(_, let samples, _) = e { return n + samples }
                            return n
                        }
                        #expect(delivered == 3)
                    }

                    @Test(arguments: ["path: ''", "path: x\nfields: []"])
                    func refusesInvalidConfiguration(_ yaml: String) {
                        #expect(throws: ConfigIssue.self) { try PluginConfigLoader.decode(\#(type).Configuration.self, yaml: yaml) }
                    }

                """#
        }
    }

    var pipeline: String {
        let header = #"""
            # An example for the \#(name.typeName) \#(kind.rawValue), written by `daq plugins new`.
            #   swift test runs it; so does `daq run` in a daq built with this plugin (README.md).
            # The virtual clock runs as fast as the data allow; use realtime for live devices.
            name: \#(name.typeName)-example
            clock: virtual

            """#
        switch kind {
        case .source:
            return header + #"""
                sources:
                  \#(componentName):
                    type: \#(name.typeName)
                    rate: 10
                    count: 20
                    step: 0.5
                sinks:
                  out:
                    type: file
                    inputs: [\#(componentName)]
                    path: ${OUTPUT:-\#(outputPath)}
                    format: jsonl
                    markers: false

                """#
        case .transform:
            return header + #"""
                sources:
                  counter:
                    type: generator
                    signal: counter
                    rate: 10
                    count: 20
                transforms:
                  \#(componentName):
                    type: \#(name.typeName)
                    inputs: [counter]
                    scale: 2
                    offset: 1
                    output: calibrated
                sinks:
                  out:
                    type: file
                    inputs: [\#(componentName)]
                    path: ${OUTPUT:-\#(outputPath)}
                    format: jsonl
                    markers: false

                """#
        case .sink:
            return header + #"""
                sources:
                  counter:
                    type: generator
                    signal: counter
                    rate: 10
                    count: 20
                sinks:
                  \#(componentName):
                    type: \#(name.typeName)
                    inputs: [counter]
                    path: ${OUTPUT:-\#(outputPath)}
                    fields: [value, seq]

                """#
        }
    }

    /// The component's name in the example pipeline: the type name without dots, which YAML
    /// override paths (`--set sinks.NAME.path=…`) would split on.
    var componentName: String { name.typeName.replacingOccurrences(of: ".", with: "_") }
}
