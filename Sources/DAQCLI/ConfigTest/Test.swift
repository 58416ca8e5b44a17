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

                Pipelines that talk to services: a file's `services: {resolver: {data: FILE}}` \
                starts the reference Info Manager server on a free loopback port for its cases, \
                its URL in RESOLVER_URL; `requires: [MQTT_URL]` skips the file's cases (reported, \
                exit status unchanged) unless the variables are set, e.g. to a local broker; \
                `publish: TOPIC` sends fed samples to an mqtt source's broker once it has \
                subscribed. Each case is stopped, and fails, after `timeout` seconds (default 60).

                Paths in the pipeline are relative to the working directory, as for daq run; run \
                daq test from the project's root. Without FILE, every *.daqtest.yaml under \
                pipelines/ (or else the working directory) is run.

                Exit status: 0 every case that ran passed (skipped ones are listed), 1 a case \
                failed, 2 a test file (or its pipeline) is invalid.

                Examples:
                  daq test
                  daq test pipelines/hello.daqtest.yaml --filter window
                  MQTT_URL=mqtt://127.0.0.1:1883 daq test pipelines/edge-to-broker.daqtest.yaml
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
                    file = try TestFileParser.parse(path: path, registry: PluginSet.current)
                } catch {
                    report.invalid(path, error.diagnostics)
                    continue
                }
                let cases = file.cases.filter { c in filter.map { c.name.contains($0) } ?? true }
                if !file.unmet.isEmpty {
                    let reason = Self.unmetReason(file.unmet)
                    for c in cases { report.skip(path, c, reason: reason) }
                    continue
                }
                let services = TestServices()
                defer { services.stop() }
                do {
                    try services.start(file.services)
                } catch let error as ConfigError {
                    report.invalid(path, error.diagnostics)
                    continue
                } catch {
                    let place = (error as? TestServices.StartError)?.place ?? Place(file: path, node: nil)
                    let failure = Failure(
                        place: place, key: "services", expected: "the services start", actual: "\(error)")
                    for c in cases { report.record(path, c, [failure]) }
                    continue
                }
                let runner = CaseRunner(
                    file: file, registry: PluginSet.current,
                    pipelineNode: try? YAMLFile.compose(path: file.pipeline, kind: "a pipeline YAML file"),
                    serviceEnvironment: services.environment)
                for c in cases {
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

        /// `needs MQTT_URL, which is not set`.
        static func unmetReason(_ names: [String]) -> String {
            names.count == 1
                ? "needs \(names[0]), which is not set"
                : "needs \(names.joined(separator: ", ")), which are not set"
        }
    }
}
