import ArgumentParser
import DAQCore
import DAQInfoManager
import DAQInfoManagerServer
import Dispatch
import Foundation
import Synchronization

extension DAQCommand {
    struct Resolver: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The Info Manager reference service, and its news.",
            subcommands: [Serve.self, News.self])
    }
}

extension DAQCommand.Resolver {
    struct Serve: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve elements from a YAML or JSON file over the Info Manager protocol.",
            discussion: """
                Answers GET /v1/elements/{id}?lang=en,de with the element in the first listed \
                language it has (then the language's other regions, then the element's first \
                language), 404 for an unknown id, and GET /v1/news?lang=en-GB with the news. \
                The protocol is documented in docs/infomanager-openapi.yaml.

                The file:
                  elements:
                    - id: "4006381333931"
                      input_type: barcode          # beacon | barcode | nfc
                      content:
                        en: { name: Pencil, description: HB pencil, url: "https://example.org/p/1" }
                        de: { name: Bleistift, description: HB-Bleistift }
                  news:                            # one text per language, or a list:
                    en-GB: "Maintenance on Sunday"
                  # news:
                  #   - {id: m1, updated: "2026-10-01T08:00:00Z", text: {en-GB: "…"}}

                News items answer like elements: in the first listed language they have, else \
                their own first language (200); 404 only when there is no news. Other methods \
                than GET get 405 with Allow: GET; a bad id encoding or input_type gets 400.

                Every problem in the file is reported with its line and column before anything \
                is served. SIGHUP reads the file again; a file with problems is reported and \
                the old content keeps being served. SIGINT or SIGTERM stops the server \
                gracefully (requests in progress finish; exit status 0).

                Example:
                  daq resolver serve --data recordings/elements.yaml --port 8080
                """)

        @Option(
            help: "The elements file (YAML or JSON).",
            completion: .file(extensions: ["yaml", "yml", "json"]))
        var data: String

        @Option(help: "The address to listen on; 0.0.0.0 serves every interface.")
        var host = "127.0.0.1"

        @Option(help: "The port; 0 takes a free one (printed on start).")
        var port = 8080

        @Option(help: "Seconds a connection may stay idle, or half-sent, before it is closed.")
        var idleTimeout = 15.0

        @Option(
            name: .customLong("token-env"),
            help: "Require `Authorization: Bearer` with the token in this environment variable.")
        var tokenEnv: String?

        func validate() throws {
            try OptionRange.check(port, "--port", in: OptionRange.port)
            try OptionRange.check(idleTimeout, "--idle-timeout", in: OptionRange.idleTimeout)
        }

        func run() throws {
            var token: String?
            if let tokenEnv {
                guard let value = ProcessInfo.processInfo.environment[tokenEnv], !value.isEmpty else {
                    throw ValidationError("--token-env: the environment variable \(tokenEnv) is not set")
                }
                token = value
            }
            let server: ReferenceServer
            do {
                server = try ReferenceServer(
                    path: data, token: token, idleTimeout: .milliseconds(Int64(idleTimeout * 1000)))
            } catch {
                for d in error.diagnostics { printError(d.description) }
                throw ExitStatus.invalidConfiguration
            }
            let host = self.host
            let port = self.port
            let failure = Mutex<String?>(nil)
            let done = DispatchSemaphore(value: 0)
            Task {
                do {
                    try await server.serveUntilSignalled(host: host, port: port) { bound in
                        printOut(
                            "daq resolver: serving \(server.elementCount) element(s) from \(server.path) on http://\(host):\(bound)"
                        )
                    }
                } catch {
                    failure.withLock { $0 = "\(error)" }
                }
                done.signal()
            }
            // The server stops itself on SIGINT and SIGTERM, gracefully; these handlers say so.
            let signals = serverSignals(server)
            done.wait()
            signals.restore()
            if let message = failure.withLock({ $0 }) {
                printError("daq resolver: \(message)")
                throw ExitStatus.runtimeFailure
            }
        }
    }
}

/// SIGHUP reloads the elements file; SIGINT and SIGTERM, which stop the server through its
/// own graceful shutdown, are announced.
private func serverSignals(_ server: ReferenceServer) -> SignalSources {
    SignalSources([SIGHUP, SIGINT, SIGTERM], label: "daq.resolver.signals") { sig in
        guard sig == SIGHUP else {
            printError("daq resolver: stopping")
            return
        }
        do throws(ConfigError) {
            let count = try server.reload()
            printOut("daq resolver: reloaded \(server.path): \(count) element(s)")
        } catch {
            for d in error.diagnostics { printError(d.description) }
            printError(
                "daq resolver: \(server.path) not reloaded: \(error.diagnostics.count) problem(s); still serving the previous content"
            )
        }
    }
}

/// Writes a line to standard output at once, so a program reading the pipe sees it.
func printOut(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
