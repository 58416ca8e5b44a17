import ArgumentParser
import DAQCore
import Foundation

extension DAQCommand.Plugins {
    /// `daq plugins new`: writes a plugin that builds and passes its tests as generated.
    struct New: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Write a new plugin, ready to build and test: a Swift package, or a Python exec script.",
            discussion: """
                Swift (the default) writes a package of plugins: the plugin with its Configuration \
                of @Setting keys and docs; Swift Testing tests on DAQTesting's virtual clock; an example \
                pipeline the tests run; a README saying how to build a daq with the plugin \
                (DAQCommand.main(plugins:) on DAQKit). The package depends on DAQCore, DAQTesting \
                and DAQStandard from DAQKit, which build no networking or crypto, by path: by \
                default the checkout this daq was built from, or --daqkit.

                --exec python writes a script speaking the exec protocol (JSON Lines over stdin and \
                stdout), its unittest, and a pipeline that runs it as `type: exec`. Nothing to build.

                NAME is the plugin's type in YAML: lowercase letters and digits, words joined by \
                '.', '-' or '_'. The folder written must not exist or be empty.

                Examples:
                  daq plugins new pt100 --kind transform
                  cd pt100 && swift test
                  daq plugins new lims-upload --kind sink --exec python --output plugins/lims
                """)

        @Argument(help: "The plugin's type name, as pipelines write it: pt100, lab.scale, serial-thermometer.")
        var name: String

        @Option(help: "What the plugin is: source, transform or sink.")
        var kind: PluginKind

        @Option(
            name: .customLong("exec"),
            help: ArgumentHelp(
                "Write an exec plugin in this language instead of a Swift package.", valueName: "language"))
        var language: ExecLanguage?

        @Option(help: "The folder to write; it must not exist or be empty. Default: ./NAME.")
        var output: String?

        @Option(
            help: ArgumentHelp(
                "The DAQKit checkout the Swift package depends on by path. Default: the one this daq was built from, \(DAQKitCheckout.builtFrom).",
                valueName: "path"))
        var daqkit: String?

        func validate() throws {
            do {
                _ = try ScaffoldName(name)
            } catch {
                throw ValidationError("\(error)")
            }
            if language != nil, daqkit != nil {
                throw ValidationError("--daqkit is for Swift packages; an exec script does not depend on DAQKit")
            }
        }

        func run() throws {
            do {
                let name = try ScaffoldName(self.name)
                let folder = output ?? name.folder
                let files: [ScaffoldFile]
                var runCommand: String?
                switch language {
                case .python:
                    files = PythonScaffold(name: name, kind: kind).files
                case nil:
                    if PluginSet.current.lookup(kind, name.typeName) != nil {
                        throw ScaffoldError(
                            "this daq already has a \(kind.rawValue) named '\(name.typeName)'; a build cannot hold two, choose another name"
                        )
                    }
                    let checkout = try DAQKitCheckout.resolve(daqkit)
                    let scaffold = SwiftScaffold(name: name, kind: kind, daqkit: checkout)
                    files = scaffold.files
                    runCommand = scaffold.runCommand
                }
                try ScaffoldWriter.write(files, to: folder)
                print(summary(name, folder: folder, files: files, runCommand: runCommand))
            } catch let error as ScaffoldError {
                printError("daq plugins new: \(error)")
                throw ExitCode.validationFailure
            }
        }

        /// What was written and what to type next; `runCommand` runs a Swift package's plugin in a `daq`.
        private func summary(_ name: ScaffoldName, folder: String, files: [ScaffoldFile], runCommand: String?)
            -> String
        {
            var lines = [
                "wrote \(language == nil ? "a Swift package" : "an exec \(kind.rawValue) in Python") to \(folder)/:"
            ]
            lines += files.map { "  \($0.path)" }
            lines.append("next:")
            lines.append("  cd \(folder)")
            if language == nil {
                lines.append("  swift test")
                if let runCommand { lines.append("  " + runCommand) }
            } else {
                lines.append("  python3 -m unittest -v")
                lines.append("  daq run \(name.typeName).yaml")
            }
            return lines.joined(separator: "\n")
        }
    }
}

/// The languages `daq plugins new --exec` writes.
enum ExecLanguage: String, ExpressibleByArgument, CaseIterable {
    case python
}

/// Where the DAQKit checkout is that a generated Swift package depends on.
enum DAQKitCheckout {
    /// The checkout this `daq` was compiled from: this file is Sources/DAQCLI/Scaffold/ in it.
    static let builtFrom = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// `path` (or ``builtFrom``) as an absolute path, checked to hold DAQKit's Package.swift.
    /// - Throws: ``ScaffoldError`` naming the folder and saying what to do.
    static func resolve(_ path: String?) throws(ScaffoldError) -> String {
        let folder = URL(fileURLWithPath: path ?? builtFrom).standardizedFileURL.path
        let manifest = (try? String(contentsOfFile: folder + "/Package.swift", encoding: .utf8)) ?? ""
        // `Package(name: "DAQKit"`, however it is laid out; a package depending on DAQKit has
        // `.package(name: "DAQKit"` instead, lowercase.
        guard manifest.filter({ !$0.isWhitespace }).contains("Package(name:\"DAQKit\"") else {
            throw ScaffoldError(
                path == nil
                    ? "the DAQKit checkout this daq was built from (\(folder)) is not there; pass --daqkit PATH to a DAQKit checkout"
                    : "'\(folder)' is not a DAQKit checkout (no Package.swift naming DAQKit)")
        }
        return folder
    }
}
