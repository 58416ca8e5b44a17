import ArgumentParser
import DAQCore
import DAQSHA256
import DAQStandard
import Dispatch
import Foundation
import Logging

extension DAQCommand {
    struct Run: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a pipeline until its sources end, a limit is reached, or it is interrupted.",
            discussion: """
                The first SIGINT (Ctrl-C) or SIGTERM stops gracefully: sources stop, buffers drain, \
                sinks flush and close, and daq exits 0 with a summary. A second one cancels at once \
                (exit 130). During the first pass of calibration: auto (which reads the recording once \
                before the run and writes nothing) the first one ends the run before it begins (exit \
                130). A run whose sources are all finite ends by itself once everything has drained.

                On a terminal a status line shows samples/s per stage (not when a console sink prints \
                to the same terminal); notes and warnings are written above it. --events jsonl writes every \
                event (state changes, step changes, sent/delivered/failed, drops) as a JSON line to \
                standard error.

                Examples:
                  daq run pipelines/hello.yaml
                  daq run walk.yaml --set sinks.log.directory=out/trial --duration 60
                  COUNT=1000000 daq run pipelines/bench-engine.yaml
                """)

        @Argument(help: "The pipeline file.", completion: .file(extensions: ["yaml", "yml"]))
        var file: String

        @Option(name: .customLong("set"), help: "Override a key: --set sinks.log.directory=out (repeatable).")
        var overrides: [String] = []

        @Option(help: "Stop after this many seconds of run-clock time (2.5, 500ms, 1m).")
        var duration: String?

        @Option(help: "Stop after sources have emitted this many samples.")
        var maxSamples: Int?

        @Option(help: "Write events to standard error: jsonl or none.")
        var events: EventsFormat = .none

        @Option(help: "The live status line: auto (on a terminal), always or never.")
        var status: StatusMode = .auto

        @Option(help: "Seconds between sink flushes; 0 flushes only at the end.")
        var flushInterval: Double = 1

        @Option(help: "The most samples a source reads per batch.")
        var batchSize: Int = 1024

        @Option(
            help: ArgumentHelp(
                "A key that sends 'trigger' to triggered scanners (a character, space or enter).",
                discussion: "Keys are read from the terminal on standard input; a stdin source cannot be used with it.")
        )
        var trigger: String?

        @Option(help: "A key that sends 'cancel' to triggered scanners.")
        var cancelKey: String?

        @Flag(help: "Print no summary.")
        var quiet = false

        @Option(help: "The least severe log lines printed: trace, debug, info, notice, warning, error or critical.")
        var logLevel: LogLevel = .notice

        @Option(help: "Log lines as text (daq: warning: …) or json (one object per line, for collectors).")
        var logFormat: LogFormat = .text

        @Flag(help: "Open no control socket ('daq tap', 'daq top' and 'daq control' attach to it).")
        var noControl = false

        @Option(
            help: ArgumentHelp(
                "Serve a live page of this run at [HOST:]PORT (127.0.0.1 unless a host is given; port 0 picks one).",
                discussion:
                    "See 'daq view --help' for what the page shows. It reads the run through its control socket."))
        var view: String?

        @Option(help: "The token a --view on a non-loopback address requires (generated and printed when left out).")
        var viewToken: String?

        @Option(
            help: ArgumentHelp(
                "Seconds a control-socket client may be silent while a command is awaited.", visibility: .hidden))
        var controlIdleTimeout = 120.0

        @Flag(
            help: ArgumentHelp(
                "Apply the file again whenever it changes (SIGHUP and 'daq control RUN reload' always do).",
                discussion: """
                    Unchanged components keep running. A transform whose settings alone changed is replaced \
                    between two batches, keeping its buffer; any other changed component drains, stops and \
                    starts again (a source from its beginning); added components start, removed ones drain. \
                    A changed clock, steps, name or metrics section is refused with the reason, and so is \
                    an invalid file: the running configuration stays. No sample is lost.
                    """))
        var watch = false

        func validate() throws {
            if let duration, Seconds.parse(duration) == nil || Seconds.parse(duration)! <= 0 {
                throw ValidationError("--duration expects a positive duration such as 60, 2.5, 500ms or 1m")
            }
            if let duration, let seconds = Seconds.parse(duration) {
                try OptionRange.check(seconds, "--duration", in: OptionRange.duration)
            }
            if let maxSamples, maxSamples < 1 { throw ValidationError("--max-samples must be at least 1") }
            if let maxSamples { try OptionRange.check(maxSamples, "--max-samples", in: OptionRange.samples) }
            if batchSize < 1 { throw ValidationError("--batch-size must be at least 1") }
            try OptionRange.check(batchSize, "--batch-size", in: OptionRange.batchSize)
            if flushInterval < 0 { throw ValidationError("--flush-interval must be 0 or more") }
            try OptionRange.check(flushInterval, "--flush-interval", in: OptionRange.flushInterval)
            try OptionRange.check(controlIdleTimeout, "--control-idle-timeout", in: OptionRange.idleTimeout)
            if let view {
                do { _ = try ViewListen.parse(view) } catch { throw ValidationError("--view: \(error)") }
                if noControl {
                    throw ValidationError("--view reads the run through its control socket: drop --no-control")
                }
            }
            if viewToken != nil && view == nil { throw ValidationError("--view-token needs --view") }
            for (flag, key) in [("--trigger", trigger), ("--cancel-key", cancelKey)] {
                if let key, KeyTriggers.byte(key) == nil {
                    throw ValidationError("\(flag) expects one character, space, tab or enter; found '\(key)'")
                }
            }
        }

        func run() throws {
            let spec: PipelineSpec
            do {
                spec = try PipelineLoader(registry: PluginSet.current, overrides: overrides, contentHash: .sha256).load(
                    file: file)
            } catch {
                for d in error.diagnostics { printError(d.description) }
                throw ExitStatus.invalidConfiguration
            }
            for w in spec.warnings { printError(w.description) }
            let format = logFormat
            let level = logLevel.level
            LoggingSystem.bootstrap { _ in DAQLogHandler(format: format, level: level) }
            let logger = Logger(label: "daq")
            let endpoint: MetricsEndpoint?
            do {
                endpoint = try spec.metrics.map(MetricsEndpoint.start)
            } catch {
                printError("daq: cannot serve metrics: \(error)")
                throw ExitStatus.runtimeFailure
            }
            defer { endpoint?.stop() }
            let options = RunOptions(
                maxSamples: maxSamples, duration: duration.flatMap(Seconds.parse), batchSize: batchSize,
                flushInterval: flushInterval, contentHash: .sha256)
            var observers: [any PipelineObserver] = [FailureReporter()]
            if events == .jsonl { observers.append(JSONLinesEventWriter()) }
            let run: PipelineRun
            do {
                run = try PipelineRun(spec: spec, options: options, observers: observers)
            } catch {
                printError("daq: cannot start \(file): \(error)")
                throw ExitStatus.of(startFailure: error)
            }
            // One trap from here to the end, so no signal falls between two: one during start()
            // (a first pass reads the whole recording there) ends that pass and the run.
            let group = RunServiceGroup(run: run, logger: logger)
            let signals = SignalHandler(run: run, group: group)
            defer { signals.restore() }
            do {
                try run.start()
            } catch {
                let status = ExitStatus.of(startFailure: error)
                printError("daq: \(status == ExitStatus.cancelled ? "cancelled" : "cannot start") \(file): \(error)")
                throw status
            }
            signals.runStarted()
            if trigger != nil || cancelKey != nil, !run.listensForCommands {
                run.cancel()
                _ = run.wait()
                printError(
                    "daq: --trigger and --cancel-key need a component that takes triggers, and \(file) has none: "
                        + "a live scanner (barcode.serial, barcode.hid, or barcode.replay of standard input) in "
                        + "session mode: triggered; barcode.replay of a scan log reads its triggers from the log")
                throw ExitStatus.invalidConfiguration
            }
            let reloader = Reloader(file: file, overrides: overrides, run: run, logger: logger)
            reloader.start(watch: watch)
            defer { reloader.stop() }
            var control: ControlServer?
            if !noControl {
                do {
                    control = try ControlServer(run: run, pipeline: spec.name, idleTimeout: controlIdleTimeout) {
                        reloader.reloadNow()
                    }
                    control?.linkRunDirectories(run.recorder.directories)
                    logger.info("control socket: \(control!.path) (daq tap, top and control attach to it)")
                } catch {
                    logger.warning("no control socket (daq tap/top cannot attach): \(error)")
                }
            }
            defer { control?.stop() }
            let viewServer: ViewServer?
            do {
                viewServer = try view.map { try startView($0, control: control) }
            } catch {
                // The files are closed properly before the failure is reported.
                run.stop()
                _ = run.wait()
                throw error
            }
            defer { viewServer?.stop() }
            let keys =
                trigger != nil || cancelKey != nil
                ? KeyTriggers(
                    run: run, trigger: trigger.flatMap(KeyTriggers.byte), cancel: cancelKey.flatMap(KeyTriggers.byte))
                : nil
            defer { keys?.restore() }
            let printsToStdout = spec.components.contains { $0.plugin.typeName == ConsoleSink.typeName }
            let statusLine = StatusLine(run: run, enabled: status.enabled(samplesOnStdout: printsToStdout))
            group.runUntilEnded()
            let result = run.wait()
            statusLine.stop()
            if !quiet {
                printError(RunSummary.text(result, pipeline: spec.name, verdicts: run.recorder.verdicts))
                // Where to look next: the run folder and what is in it, not only counters.
                let written = RunSummary.written(directories: run.recorder.directories, files: run.recorder.outputs)
                if !written.isEmpty { printError(written) }
                let tables = RunSummary.tables(run.recorder.results)
                if !tables.isEmpty { printError(tables) }
            }
            switch result.state {
            case .finished where result.recordProblems.isEmpty: return
            case .cancelled: throw ExitStatus.cancelled
            default: throw ExitStatus.runtimeFailure
            }
        }

        /// Serves the live view of this run, read through its own control socket as `daq view`
        /// reads another process's, and prints its URL.
        private func startView(_ address: String, control: ControlServer?) throws -> ViewServer {
            guard let control else {
                printError("daq: --view: the run has no control socket to read (see the warning above)")
                throw ExitStatus.runtimeFailure
            }
            let listen = try ViewListen.parse(address)
            let server = ViewServer()
            do {
                let url = try server.start(
                    socket: control.path, listen: listen, access: ViewAccess.choose(for: listen, token: viewToken))
                printError("daq: view: \(url)")
            } catch {
                printError("daq: --view: \(error)")
                throw ExitStatus.runtimeFailure
            }
            return server
        }
    }

    enum EventsFormat: String, ExpressibleByArgument, CaseIterable {
        case jsonl, none
    }

    enum StatusMode: String, ExpressibleByArgument, CaseIterable {
        case auto, always, never

        /// Whether to draw, for a command that prints nothing else on standard output.
        var enabled: Bool { enabled(samplesOnStdout: false) }

        /// `auto` draws on a terminal, unless a console sink prints samples to the same terminal:
        /// its lines and the redrawn status would overwrite each other.
        func enabled(samplesOnStdout: Bool) -> Bool {
            switch self {
            case .auto: return isatty(STDERR_FILENO) == 1 && !(samplesOnStdout && isatty(STDOUT_FILENO) == 1)
            case .always: return true
            case .never: return false
            }
        }
    }
}

/// Logs failures and warnings as they happen, so a long run does not hide them until the end.
final class FailureReporter: PipelineObserver {
    let logger: Logger

    init(logger: Logger = Logger(label: "daq")) { self.logger = logger }

    func handle(_ event: PipelineEvent) {
        switch event {
        case .failed(let c, let m): logger.error("\(m)", metadata: ["component": "\(c ?? "pipeline")"])
        case .warning(let c, let m): logger.warning("\(m)", metadata: ["component": "\(c)"])
        case .notice(let c, let m): logger.notice("\(m)", metadata: ["component": "\(c)"])
        case .sinkFailed(let s, let n, let m):
            logger.error("\(n) samples not delivered: \(m)", metadata: ["component": "\(s)"])
        default: break
        }
    }
}
