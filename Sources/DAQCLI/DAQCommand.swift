import ArgumentParser
import DAQCore
import DAQStandard
import Foundation
import Synchronization

/// The `daq` command tree, as a library so a custom build can add plugins and keep every verb:
///
/// ```swift
/// // main.swift of a package that depends on DAQKit
/// DAQCommand.main(plugins: StandardPlugins.all + [.source(MySensor.self)])
/// ```
public struct DAQCommand: ParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "daq",
        abstract: "Run data-acquisition pipelines described in YAML.",
        discussion: """
            A pipeline wires sources (a generator, a file, stdin, devices, recordings) through \
            transforms (filter, select, rename, throttle, window, …) into sinks (console, files, \
            loggers, network). `daq plugins` lists every type this build knows.

            Exit status:
              0   success
              1   runtime failure (a stage failed or the run's manifest could not be written)
              2   invalid configuration (every problem is printed as FILE:LINE:COLUMN)
              64  usage error (unknown option, missing argument)
              130 cancelled: daq run after a second SIGINT/SIGTERM (the first while it starts),
                  daq batch after the first

            Shell completion (pipeline files, plugin types, options):
              daq --generate-completion-script bash > /etc/bash_completion.d/daq
              daq --generate-completion-script zsh  > ~/.zfunc/_daq     (fish works too)
            """,
        version: "0.1.0",
        subcommands: [
            Run.self, Validate.self, Test.self, Plugins.self, Batch.self, Inspect.self, Repair.self, Resolve.self,
            Resolver.self,
            Schema.self, Tap.self, Top.self, Control.self, View.self, Describe.self,
        ]
    )

    public init() {}

    /// Runs `daq` with the given plugin types and exits.
    ///
    /// - Parameter plugins: every plugin type this build offers: `BuiltinPlugins.all` (DAQKit)
    ///   plus your own, or only the families you want.
    public static func main(plugins: [PluginDescriptor]) -> Never {
        do {
            PluginSet.current = try PluginRegistry(plugins)
        } catch {
            printError("daq: \(error)")
            Foundation.exit(70)
        }
        Self.main()
        Foundation.exit(0)
    }
}

/// The registry the commands use, set once by ``DAQCommand/main(plugins:)``.
enum PluginSet {
    private static let storage = Mutex<PluginRegistry?>(nil)

    static var current: PluginRegistry {
        get {
            guard let registry = storage.withLock({ $0 }) else {
                // The command tree has no plugins of its own: the program names them.
                fatalError("daq: no plugins; start the command with DAQCommand.main(plugins: BuiltinPlugins.all)")
            }
            return registry
        }
        set { storage.withLock { $0 = newValue } }
    }
}

/// Exit codes documented in `daq --help`.
enum ExitStatus {
    static let runtimeFailure = ExitCode(1)
    static let invalidConfiguration = ExitCode(2)
    static let cancelled = ExitCode(130)

    /// A plugin that refuses its settings while being built (a fit file that cannot be read, a
    /// port out of range) is a configuration error, 2, like one the validator finds; a signal
    /// during the start (a first pass under way) is a cancel, 130; anything else that stops a
    /// run from starting (a device that is busy) is 1.
    static func of(startFailure error: any Error) -> ExitCode {
        switch DAQError(error, component: nil, code: .startFailed).code {
        case .invalidConfiguration: return invalidConfiguration
        case .cancelled: return cancelled
        default: return runtimeFailure
        }
    }
}

/// Writes a line to standard error, clear of the live status line.
func printError(_ line: String) {
    StandardError.line(line)
}

/// Writes generated text (a schema, a reference) to standard output, or atomically to `path`
/// so an editor or a test never reads half a file.
func writeGenerated(_ text: String, to path: String?) throws {
    guard let path else {
        FileHandle.standardOutput.write(Data(text.utf8))
        return
    }
    do {
        try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    } catch {
        printError("daq: cannot write \(path): \(error.localizedDescription)")
        throw ExitStatus.runtimeFailure
    }
}
