import ArgumentParser
import DAQCore
import Foundation

extension DAQCommand {
    struct Validate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Check pipeline files without running them.",
            discussion: """
                Reports every problem in every file as FILE:LINE:COLUMN: error: KEY.PATH: message, \
                warnings too (a source nobody reads, a component with no path to a sink). \
                Exits 0 only when every file is valid; 2 otherwise.
                """)

        @Argument(help: "Pipeline files.", completion: .file(extensions: ["yaml", "yml"]))
        var files: [String]

        @Option(name: .customLong("set"), help: "Override a key before validating: --set sinks.log.directory=out.")
        var overrides: [String] = []

        @Flag(help: "Print nothing for valid files.")
        var quiet = false

        func run() throws {
            let loader = PipelineLoader(registry: PluginSet.current, overrides: overrides)
            var failed = false
            for file in files {
                do {
                    let spec = try loader.load(file: file)
                    for w in spec.warnings { printError(w.description) }
                    if !quiet { print("\(file): ok (\(spec.components.count) components)") }
                } catch {
                    failed = true
                    for d in error.diagnostics { printError(d.description) }
                }
            }
            if failed { throw ExitStatus.invalidConfiguration }
        }
    }
}
