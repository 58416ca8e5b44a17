import ArgumentParser
import Foundation

extension DAQCommand {
    struct Control: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "control",
            abstract: "Send a command to a running pipeline: pause, resume, stop, reload, step PATH.",
            discussion: """
                pause holds the sources (buffers drain, nothing is lost), resume goes on, stop \
                ends the run gracefully as Ctrl-C does, reload applies the pipeline file again as \
                SIGHUP does (see 'daq run --help', --watch: changed components restart, nothing \
                is lost), and step PATH makes PATH the run's step from now on, written as a marker \
                by every logger.

                RUN is the pipeline's name, its process id, a run directory or a socket path.
                """)

        @Argument(help: ArgumentHelp("The run: pipeline name, pid, run directory or socket path.", valueName: "run"))
        var runID: String

        @Argument(help: "pause, resume, stop, reload, or step followed by the step path.")
        var command: [String]

        func validate() throws {
            guard let verb = command.first, ["pause", "resume", "stop", "step", "reload"].contains(verb) else {
                throw ValidationError("expected pause, resume, stop, reload or step PATH")
            }
            if verb == "step" && command.count < 2 { throw ValidationError("step needs a PATH, e.g. step walk/return") }
        }

        /// What the run was told, as a user reads it.
        static func done(_ command: [String]) -> String {
            switch command.first {
            case "pause": return "paused"
            case "resume": return "resumed"
            case "stop": return "stopping (the run closes its outputs and ends)"
            case "reload": return "reloading its pipeline file"
            default: return "step is now \(command.dropFirst().joined(separator: " "))"
            }
        }

        func run() throws {
            do {
                let answer = try ControlClient(run: runID).request(command.joined(separator: " "))
                guard answer == "{\"ok\":true}" else {
                    printError("daq control: \(ControlAnswer.error(answer))")
                    throw ExitStatus.runtimeFailure
                }
                // Silence after a command reads as nothing happened: say what the run took.
                printOut("\(runID): \(Self.done(command))")
            } catch let error as ControlError {
                printError("daq control: \(error)")
                throw ExitStatus.runtimeFailure
            }
        }
    }
}
