import ArgumentParser
import DAQCore
import Foundation

extension DAQCommand {
    struct Schema: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the JSON Schema of the pipeline format, for editors.",
            discussion: """
                The schema is generated from the same plugin metadata that 'daq plugins describe' \
                prints, so it knows every plugin type of this build (custom builds included) and \
                each one's keys. Save it once and point the YAML language server at it with a \
                first line in the pipeline file:

                  # yaml-language-server: $schema=../docs/pipeline.schema.json

                Editors then complete and check keys, plugin types and enum values as you type.
                """)

        @Option(
            help: "Write the schema to this file instead of standard output.", completion: .file(extensions: ["json"]))
        var output: String?

        func run() throws {
            let text: String
            do {
                text = try PipelineSchema.json(registry: PluginSet.current)
            } catch {
                printError("daq: cannot build the schema: \(error)")
                throw ExitStatus.runtimeFailure
            }
            try writeGenerated(text, to: output)
        }
    }
}
