import ArgumentParser
import DAQCore
import Foundation

extension DAQCommand {
    struct Describe: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print what every component of a pipeline emits, without running it.",
            discussion: """
                For each source and transform: its fields with their types and units, its nominal \
                rate, what its timestamps count from and in which zone, and where it comes from; \
                for each sink, what it reads. Sources that replay files read only their headers. \
                --json prints {"components": {NAME: {"kind", "type", "fields": [{"name", "type", \
                "unit"}], "rate_hz", "time_base", "time_zone", "origin": {…}}}}; a sink's entry \
                holds its merged input. A component whose settings wait for an environment \
                variable nobody set is left out, with a note naming the variable. Exits 2 when \
                the file is invalid or a component cannot say what it emits (an input file that \
                is missing).
                """)

        @Argument(help: "The pipeline file.", completion: .file(extensions: ["yaml", "yml"]))
        var file: String

        @Option(name: .customLong("set"), help: "Override a key first: --set sources.accel.path=other.csv.")
        var overrides: [String] = []

        @Flag(help: "Print JSON instead of text.")
        var json = false

        func run() throws {
            var loader = PipelineLoader(registry: PluginSet.current, overrides: overrides)
            // As `daq validate` does: a variable the run needs is the user's to set, not an error
            // in the file; what does not depend on it is still described.
            loader.unsetVariables = .note
            let spec: PipelineSpec
            do {
                spec = try loader.load(file: file)
            } catch {
                for d in error.diagnostics { printError(d.description) }
                throw ExitStatus.invalidConfiguration
            }
            for w in spec.warnings { printError(w.description) }
            let graph: StreamGraph
            do {
                graph = try StreamGraph.describe(spec)
            } catch {
                printError("daq describe: \(file): \(error)")
                throw ExitStatus.invalidConfiguration
            }
            if json {
                var bytes: [UInt8] = []
                JSONEncoding.append(.object(["components": .object(Self.json(spec, graph))]), to: &bytes)
                bytes.append(0x0A)
                FileHandle.standardOutput.write(Data(bytes))
            } else {
                print(Self.text(spec, graph).joined(separator: "\n"))
            }
        }

        /// Each component by name, in the file's order.
        static func json(_ spec: PipelineSpec, _ graph: StreamGraph) -> Fields {
            var all = Fields()
            for c in spec.components {
                var entry: Fields = ["kind": .string(c.kind.rawValue), "type": .string(c.plugin.typeName)]
                if let d = graph.outputs[c.name] {
                    for (k, v) in zip(d.jsonFields.keys, d.jsonFields.values) { entry[k] = v }
                } else if let input = graph.input(of: c.name, order: c.inputs) {
                    entry["input"] = .object(input.jsonFields)
                }
                all[c.name] = .object(entry)
            }
            return all
        }

        static func text(_ spec: PipelineSpec, _ graph: StreamGraph) -> [String] {
            var lines: [String] = []
            for c in spec.components {
                if !lines.isEmpty { lines.append("") }
                lines.append("\(c.name) (\(c.kind.rawValue) \(c.plugin.typeName))")
                if let d = graph.outputs[c.name] {
                    lines += StreamText.lines(d)
                } else if let input = graph.input(of: c.name, order: c.inputs) {
                    lines.append("  reads \(c.inputs.joined(separator: ", ")):")
                    lines += StreamText.lines(input, indent: "    ")
                }
            }
            return lines
        }
    }
}
