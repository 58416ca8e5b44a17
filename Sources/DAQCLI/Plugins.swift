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
                print(found.map(PluginDocumentation.text).joined(separator: "\n"))
            }
        }
    }
}

extension PluginKind: ExpressibleByArgument {}

/// The text `daq plugins describe` prints for one plugin.
enum PluginDocumentation {
    static func text(_ p: PluginDescriptor) -> String {
        var lines = ["\(p.typeName) (\(p.kind.rawValue), \(p.module))", "  \(p.summary)", ""]
        let keys = ComponentSpec.commonKeys(p.kind) + p.configKeys
        if keys.isEmpty {
            lines.append("  (no keys besides 'type')")
        } else {
            let rows = keys.map { k in
                (
                    k.name, k.type, k.required ? "required" : (k.defaultValue.map { "default \($0)" } ?? "optional"),
                    k.doc
                )
            }
            let w0 = rows.map(\.0.count).max()!
            let w1 = rows.map(\.1.count).max()!
            let w2 = rows.map(\.2.count).max()!
            lines.append("  keys:")
            for r in rows {
                lines.append(
                    "    " + r.0.padding(toLength: w0, withPad: " ", startingAt: 0) + "  "
                        + r.1.padding(toLength: w1, withPad: " ", startingAt: 0) + "  "
                        + r.2.padding(toLength: w2, withPad: " ", startingAt: 0) + "  " + r.3)
            }
        }
        if p.kind != .sink { lines += emits(p.output) }
        return lines.joined(separator: "\n")
    }

    /// What the type emits: its own fields, or the input's plus its own, with units.
    static func emits(_ output: StreamOutput) -> [String] {
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
            let w2 = units.map(\.count).max()!
            for (f, unit) in zip(output.fields, units) {
                lines.append(
                    "    " + f.name.padding(toLength: w0, withPad: " ", startingAt: 0) + "  "
                        + f.descriptor.type.rawValue.padding(toLength: w1, withPad: " ", startingAt: 0) + "  "
                        + unit.padding(toLength: w2, withPad: " ", startingAt: 0) + "  " + f.summary)
            }
        }
        if let note = output.note, output.shape != .free || !output.fields.isEmpty { lines.append("    " + note) }
        return lines
    }
}
