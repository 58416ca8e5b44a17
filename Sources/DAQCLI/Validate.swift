import ArgumentParser
import DAQCore
import DAQSHA256
import Foundation

extension DAQCommand {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check pipeline files (and config tests) without running them.",
            discussion: """
                Reports every problem in every file as FILE:LINE:COLUMN: error: KEY.PATH: message, \
                warnings too (a source nobody reads, a component with no path to a sink). \
                A config test (*.daqtest.yaml) is checked as `daq test` reads it, with the pipeline \
                it names. Input files are opened and their headers read, as a run would before its \
                first sample: a missing recording is an error at its path: line (relative paths \
                are looked up in the working directory). An environment variable the file needs \
                and nobody set is a note, not an error: the file is not wrong, the run needs it \
                (--strict makes it an error); the inputs it names are then not checked. \
                Exits 0 only when every file is valid; 2 otherwise. So \
                `daq validate pipelines/*.yaml` checks a whole folder.
                """)

        @Argument(help: "Pipeline files and config-test files.", completion: .file(extensions: ["yaml", "yml"]))
        var files: [String]

        @Option(name: .customLong("set"), help: "Override a key before validating: --set sinks.log.directory=out.")
        var overrides: [String] = []

        @Flag(help: "Treat an unset ${VAR} without a default as an error, as a run does.")
        var strict = false

        @Flag(help: "Print nothing for valid files.")
        var quiet = false

        func run() throws {
            var loader = PipelineLoader(registry: PluginSet.current, overrides: overrides, contentHash: .sha256)
            loader.unsetVariables = strict ? .error : .note
            var failed = false
            for file in files {
                do {
                    let summary =
                        TestDiscovery.suffixes.contains(where: file.hasSuffix)
                        ? try validateTest(file) : try validatePipeline(file, loader: loader)
                    if !quiet { print("\(file): ok (\(summary))") }
                } catch {
                    failed = true
                    for d in error.diagnostics { printError(d.description) }
                }
            }
            if failed { throw ExitStatus.invalidConfiguration }
        }

        private func validatePipeline(_ file: String, loader: PipelineLoader) throws(ConfigError) -> String {
            let spec = try loader.load(file: file)
            for w in spec.warnings { printError(w.description) }
            let unset = spec.warnings.filter { $0.severity == .note }.count
            // Components whose values wait for a variable are not built, so they are not counted.
            guard unset == 0 else { return "\(unset) environment variable\(unset == 1 ? "" : "s") to set before a run" }
            // What a run checks before its first sample (input files, their headers) is checked here too.
            let problems = StreamGraph.startDiagnostics(spec)
            guard problems.isEmpty else { throw ConfigError(problems) }
            return "\(spec.components.count) components"
        }

        private func validateTest(_ file: String) throws(ConfigError) -> String {
            if !overrides.isEmpty {
                printError("\(file): note: --set does not apply to a config test; it carries its own 'set:'")
            }
            let test = try TestFileParser.parse(path: file, registry: PluginSet.current)
            let cases = "\(test.cases.count) case\(test.cases.count == 1 ? "" : "s")"
            if !test.unmet.isEmpty {
                printError(
                    "\(file): note: requires \(test.unmet.joined(separator: ", ")), not set: its pipeline and cases were not checked"
                )
                return "config test, \(cases)"
            }
            return "config test of \(test.pipeline), \(cases)"
        }
    }
}
