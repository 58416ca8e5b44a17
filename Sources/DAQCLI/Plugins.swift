import ArgumentParser
import DAQCore
import Foundation

extension DAQCommand {
    struct Plugins: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the plugin types this build knows, describe them, or write a new one.",
            subcommands: [List.self, Describe.self, Reference.self, New.self],
            defaultSubcommand: List.self)

        struct List: ParsableCommand {
            static let configuration = CommandConfiguration(abstract: "List every source, transform and sink type.")

            func run() {
                let registry = PluginSet.current
                for kind in PluginKind.allCases {
                    let plugins = registry.plugins(of: kind)
                    guard !plugins.isEmpty else { continue }
                    print("\(kind.section):")
                    let width = plugins.map(\.typeName.count).max() ?? 0
                    for p in plugins {
                        print("  \(p.typeName.padding(toLength: width, withPad: " ", startingAt: 0))  \(p.summary)")
                    }
                }
                print("\nRun 'daq plugins describe TYPE' for a type's keys.")
            }
        }

        struct Describe: ParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "Print a plugin type's configuration keys: name, type, default, meaning.")

            @Argument(
                help: "The plugin type, e.g. window.",
                completion: .custom { _, _, prefix in
                    Set(PluginSet.current.all.map(\.typeName)).filter { $0.hasPrefix(prefix) }.sorted()
                })
            var type: String

            @Option(help: "source, transform or sink, when the name exists as several kinds.")
            var kind: PluginKind?

            func run() throws {
                let registry = PluginSet.current
                var found = registry.plugins(named: type)
                if let kind { found = found.filter { $0.kind == kind } }
                guard !found.isEmpty else {
                    let all = registry.all.map(\.typeName)
                    var message = "unknown plugin type '\(type)'"
                    if let guess = DidYouMean.best(type, in: all) { message += " (did you mean '\(guess)'?)" }
                    printError("daq: \(message); run 'daq plugins' for the list")
                    throw ExitStatus.invalidConfiguration
                }
                let width = TerminalText.width
                print(found.map { PluginDocumentation.text($0, width: width) }.joined(separator: "\n"))
            }
        }
    }
}

extension PluginKind: ExpressibleByArgument {}

/// The text `daq plugins describe` prints for one plugin.
enum PluginDocumentation {
    /// - Parameter width: the terminal's columns: each key takes a line (name, type, default) and
    ///   its meaning the lines below it, broken to fit, rather than one line of 200 columns.
    static func text(_ p: PluginDescriptor, width: Int = 80) -> String {
        var lines = ["\(p.typeName) (\(p.kind.rawValue), \(p.module))"]
        lines += TerminalText.wrapped(p.summary, width: width, indent: 2) + [""]
        let keys = ComponentSpec.commonKeys(p.kind) + p.configKeys
        if keys.isEmpty {
            lines.append("  (no keys besides 'type')")
        } else {
            lines.append("  keys:")
            for k in keys {
                let given = k.required ? "required" : (k.defaultValue.map { "default \($0)" } ?? "optional")
                lines += TerminalText.wrapped("\(k.name) \(k.type), \(given)", width: width, indent: 4, hanging: 6)
                lines += TerminalText.wrapped(k.doc, width: width, indent: 8)
            }
        }
        if p.kind != .sink { lines += emits(p.output, width: width) }
        return lines.joined(separator: "\n")
    }

    /// What the type emits: its own fields, or the input's plus its own, with units.
    static func emits(_ output: StreamOutput, width: Int = 80) -> [String] {
        var lines = ["", "  emits:"]
        switch output.shape {
        case .own: break
        case .input: lines.append("    the input's fields, then:")
        case .free: lines.append("    fields as the data brings them" + (output.fields.isEmpty ? "" : ", and:"))
        }
        if let rate = output.rate {
            lines.append("    at " + (rate.hz.map { "\(StreamText.number($0)) Hz" } ?? "an irregular rate"))
        }
        if !output.fields.isEmpty {
            let w0 = output.fields.map(\.name.count).max()!
            let w1 = output.fields.map(\.descriptor.type.rawValue.count).max()!
            let units = output.fields.map { f in f.descriptor.unit ?? f.unitNote.map { "(\($0))" } ?? "-" }
            for (f, unit) in zip(output.fields, units) {
                let row =
                    "    " + f.name.padding(toLength: w0, withPad: " ", startingAt: 0) + "  "
                    + f.descriptor.type.rawValue.padding(toLength: w1, withPad: " ", startingAt: 0) + "  " + unit
                // Aligned while it fits; a long unit note is broken like any text.
                lines += row.count <= width ? [row] : TerminalText.wrapped(row, width: width, indent: 4, hanging: 6)
                lines += TerminalText.wrapped(f.summary, width: width, indent: 8)
            }
        }
        if let note = output.note, output.shape != .free || !output.fields.isEmpty {
            lines += TerminalText.wrapped(note, width: width, indent: 4)
        }
        return lines
    }
}
