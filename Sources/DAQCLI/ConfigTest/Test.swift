import ArgumentParser
import DAQCore
import Foundation

extension DAQCommand {
    struct Test: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run config tests: feed a pipeline's components, check what comes out.",
            discussion: """
                A test file (NAME.daqtest.yaml, next to the pipeline it tests) names a pipeline and \
                lists cases. Each case feeds input to any component — a source's raw input (text, \
                lines, hex of HCI events), or samples into a transform or sink — runs the pipeline \
                on the virtual clock with sink outputs in a scratch directory, and checks what \
                components emit, what sinks write and the events raised. See docs/config-tests.md.

                Paths in the pipeline are relative to the working directory, as for daq run; run \
                daq test from the project's root. Without FILE, every *.daqtest.yaml under \
                pipelines/ (or else the working directory) is run.

                Exit status: 0 all cases passed, 1 a case failed, 2 a test file (or its pipeline) \
                is invalid.

                Examples:
                  daq test
                  daq test pipelines/hello.daqtest.yaml --filter window
                """)

        @Argument(help: "Test files or folders to search.", completion: .file(extensions: ["yaml"]))
        var files: [String] = []

        @Option(help: "Run only the cases whose name contains this text.")
        var filter: String?

        @Flag(help: "Keep each case's scratch directory (fed inputs, sink outputs) and print where it is.")
        var keep = false

        func run() throws {
            let paths = TestDiscovery.files(files.isEmpty ? TestDiscovery.defaultRoots() : files)
            if paths.isEmpty {
                printError("daq test: no *.daqtest.yaml found")
                throw ExitStatus.invalidConfiguration
            }
            var report = TestReport()
            let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("daq-test-\(UUID().uuidString)")
                .path
            defer { if !keep { try? FileManager.default.removeItem(atPath: scratch) } }
            var caseNumber = 0
            for path in paths {
                let file: TestFile
                do {
                    let parsed = try TestFileParser.parse(path: path, registry: PluginSet.current)
                    file = parsed.0
                } catch {
                    report.invalid(path, error.diagnostics)
                    continue
                }
                let runner = CaseRunner(
                    file: file, registry: PluginSet.current,
                    pipelineNode: try? YAMLFile.compose(path: file.pipeline, kind: "a pipeline YAML file"))
                for c in file.cases where filter.map({ c.name.contains($0) }) ?? true {
                    caseNumber += 1
                    let dir = "\(scratch)/\(caseNumber)"
                    do {
                        let outcome = try runner.run(c, in: dir)
                        report.record(path, c, CaseChecker(outcome: outcome).failures(of: c))
                    } catch let error as ConfigError {
                        report.invalid(path, error.diagnostics, case: c)
                    } catch {
                        report.record(
                            path, c,
                            [
                                Failure(
                                    place: c.place, key: "run", expected: "the case's input can be written",
                                    actual: "\(error)")
                            ])
                    }
                    if keep { print("  scratch: \(dir)") }
                }
            }
            report.finish()
            if report.hasInvalid { throw ExitStatus.invalidConfiguration }
            if report.failed > 0 { throw ExitStatus.runtimeFailure }
        }
    }
}
