import ArgumentParser
import Foundation

extension DAQCommand {
    struct Top: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a live table of a running pipeline's components.",
            discussion: """
                For every component: samples in and out per second, input buffer fill, drops and \
                errors, and for sinks samples sent, delivered and failed. Redrawn every \
                --interval seconds until the run ends or Ctrl-C; --once prints one table (rates \
                measured over one interval) and exits, for scripts.

                RUN is the pipeline's name, its process id, a run directory or a socket path; \
                it may be left out when only one pipeline is running.
                """)

        @Argument(help: ArgumentHelp("The run: pipeline name, pid, run directory or socket path.", valueName: "run"))
        var runID: String?

        @Option(help: "Seconds between updates.")
        var interval: Double = 1

        @Flag(help: "Print one table and exit.")
        var once = false

        func validate() throws {
            if !(interval > 0) { throw ValidationError("--interval must be greater than 0") }
            try OptionRange.check(interval, "--interval", in: OptionRange.interval)
        }

        func run() throws {
            let client: ControlClient
            do {
                client = try ControlClient(run: runID)
            } catch {
                printError("daq top: \(error)")
                throw ExitStatus.runtimeFailure
            }
            let terminal = isatty(STDOUT_FILENO) == 1 && !once
            var previous: (RunStats, Double)?
            while true {
                guard let line = try? client.request("stats"),
                    let stats = try? JSONDecoder().decode(RunStats.self, from: Data(line.utf8))
                else { return }  // the run has ended
                let now = Date().timeIntervalSince1970
                if let (before, then) = previous {
                    let table = TopTable.render(stats, previous: before, seconds: now - then)
                    let text = (terminal ? "\u{1B}[H\u{1B}[2J" + table : table) + "\n"
                    FileHandle.standardOutput.write(Data(text.utf8))
                    if once { return }
                }
                previous = (stats, now)
                Thread.sleep(forTimeInterval: interval)
            }
        }
    }
}

/// The table `daq top` prints.
enum TopTable {
    static func render(_ stats: RunStats, previous: RunStats, seconds: Double) -> String {
        let before = Dictionary(previous.stages.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        func rate(_ now: Int, _ then: Int?) -> String {
            guard let then, seconds > 0 else { return "-" }
            return Self.count(Double(now - then) / seconds)
        }
        var rows = [
            [
                "component", "type", "state", "in/s", "out/s", "buffer", "dropped", "errors", "sent", "delivered",
                "failed",
            ]
        ]
        for s in stats.stages {
            let b = before[s.name]
            let sink = s.kind == "sink"
            rows.append([
                s.name, s.type, s.state,
                s.kind == "source" ? "-" : rate(s.samplesIn, b?.samplesIn),
                sink ? "-" : rate(s.samplesOut, b?.samplesOut),
                s.bufferCapacity > 0
                    ? "\(s.buffered)/\(s.bufferCapacity) \(s.buffered * 100 / s.bufferCapacity)%" : "-",
                "\(s.dropped)", "\(s.errors)",
                sink ? "\(s.sent)" : "-", sink ? "\(s.delivered)" : "-", sink ? "\(s.failed)" : "-",
            ])
        }
        let widths = (0..<rows[0].count).map { c in rows.map { $0[c].count }.max() ?? 0 }
        let header = "\(stats.pipeline) — \(stats.state), \(formatUptime(stats.uptime)) on the run clock"
        let lines = rows.map { row in
            row.enumerated().map { c, cell in
                c < 3
                    ? cell.padding(toLength: widths[c], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[c] - cell.count) + cell
            }.joined(separator: "  ")
        }
        return ([header] + lines).joined(separator: "\n")
    }

    static func count(_ v: Double) -> String {
        if v >= 1e6 { return "\(Int(v / 1e5) / 10).\(Int(v / 1e5) % 10)M" }
        if v >= 1e4 { return "\(Int(v / 1e3))k" }
        return "\(Int(v.rounded()))"
    }

    static func formatUptime(_ s: Double) -> String {
        let t = Int(s)
        return t >= 3600
            ? "\(t / 3600)h\(t % 3600 / 60)m"
            : t >= 60 ? "\(t / 60)m\(t % 60)s" : "\(Int(s * 10) / 10).\(Int(s * 10) % 10)s"
    }
}
