import ArgumentParser
import Dispatch
import Foundation

extension DAQCommand {
    struct View: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve a live page of a running pipeline: its graph, signals, steps, files and log.",
            discussion: """
                Attaches to the run's control socket, as daq tap and daq top do, and prints the URL \
                to open. The page shows every component with its rates, buffer fill, drops and \
                errors, a strip chart per stream (min/max per time bucket, with units, steps, \
                markers and gaps), the run's state, clock, steps and files, and pause, resume, \
                stop and step buttons that send what daq control sends. It ends when the run ends.

                The page is served from this binary and fetches nothing else. On a loopback address \
                (the default) it needs no token; on any other it takes --view-token, or prints a \
                generated one once, and refuses every request without it. A slow page loses view \
                frames, never samples: the run's output is the same with or without a view.

                RUN is the pipeline's name, its process id, a run directory or a socket path; \
                it may be left out when only one pipeline is running.

                Examples:
                  daq view                       # the only run, on http://127.0.0.1:8080/
                  daq view walk-test --listen 0  # any free port
                  daq view --listen 0.0.0.0:8080 --view-token "$TOKEN"
                """)

        @Argument(help: ArgumentHelp("The run: pipeline name, pid, run directory or socket path.", valueName: "run"))
        var runID: String?

        @Option(help: "Where to serve the page: [HOST:]PORT (127.0.0.1 unless a host is given; port 0 picks one).")
        var listen = "8080"

        @Option(help: "The token a view on a non-loopback address requires (generated and printed when left out).")
        var viewToken: String?

        func validate() throws {
            do { _ = try ViewListen.parse(listen) } catch { throw ValidationError("--listen: \(error)") }
        }

        func run() throws {
            let listen = try ViewListen.parse(listen)
            let ended = DispatchSemaphore(value: 0)
            let server = ViewServer()
            do {
                let socket = try ControlSockets.resolve(runID)
                let url = try server.start(
                    socket: socket, listen: listen, access: ViewAccess.choose(for: listen, token: viewToken)
                ) { ended.signal() }
                printError("daq view: \(url)")
            } catch {
                printError("daq view: \(error)")
                throw ExitStatus.runtimeFailure
            }
            ended.wait()
            printError("daq view: the run has ended")
            server.stop()
        }
    }
}
