import ArgumentParser
import Foundation

extension DAQCommand {
    struct Tap: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Print the samples leaving components of a running pipeline.",
            discussion: """
                Attaches to the control socket of a running 'daq run' and prints, as JSON Lines, \
                the samples the components matching GLOB emit ('*' for all, 'motion.*', 'log'). \
                Before a stream's first samples, and whenever it changes, a line \
                {"tap":"descriptor","stream":NAME,"descriptor":{…}} says what the stream is: \
                its fields with types and units, rate, time base and zone (as `daq describe --json`). \
                The pipeline never waits for the tap: under load it is sampled (at most \
                --max-rate samples per second, evenly spread), and what was left out is said on \
                stderr. Ends when the run ends, after --count samples, or on Ctrl-C.

                RUN is the pipeline's name, its process id, a run directory or a socket path; \
                it may be left out when only one pipeline is running: `daq tap 'motion.*'` then \
                taps that run. A lone argument that names a running pipeline is the run.
                """)

        @Argument(
            help: ArgumentHelp(
                "[RUN] [GLOB]: the run (pipeline name, pid, run directory or socket path), then the "
                    + "components to tap, a name or a glob pattern (quote it; default '*').",
                valueName: "run-and-components"))
        var targets: [String] = []

        @Option(help: "Samples per second printed at most; the rest are skipped and counted.")
        var maxRate: Int = 1000

        @Option(help: "Stop after this many samples.")
        var count: Int?

        func validate() throws {
            if targets.count > 2 {
                throw ValidationError("expected at most RUN and GLOB, found \(targets.count) arguments")
            }
            if maxRate < 1 { throw ValidationError("--max-rate must be at least 1") }
            try OptionRange.check(maxRate, "--max-rate", in: OptionRange.tapRate)
            if let count, count < 1 { throw ValidationError("--count must be at least 1") }
            if let count { try OptionRange.check(count, "--count", in: OptionRange.samples) }
        }

        func run() throws {
            let (runID, components) = ControlSockets.runAndPattern(targets)
            let client: ControlClient
            do {
                client = try ControlClient(run: runID)
            } catch {
                printError("daq tap: \(error)")
                throw ExitStatus.runtimeFailure
            }
            var printed = 0
            var failure: String?
            var skipped = SkipReport()
            defer { skipped.finish() }
            try client.stream("tap \(components) \(maxRate)") { line in
                if line.hasPrefix("{\"tap\":\"skipped\"") {
                    skipped.add(Int(line.filter(\.isNumber)) ?? 0)
                    return true
                }
                if line.hasPrefix("{\"tap\":\"components\"") {
                    let names =
                        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["names"]
                        as? [String]
                    printError("daq tap: tapping \(names?.joined(separator: ", ") ?? "?")")
                    return true
                }
                if line.hasPrefix("{\"tap\":\"descriptor\"") {
                    FileHandle.standardOutput.write(Data((line + "\n").utf8))
                    return true
                }
                if line.hasPrefix("{\"ok\":false") {
                    failure = line
                    return false
                }
                // Written as it comes, not buffered, so a tap piped into jq or grep is live.
                FileHandle.standardOutput.write(Data((line + "\n").utf8))
                printed += 1
                return count.map { printed < $0 } ?? true
            }
            if let failure {
                printError("daq tap: \(ControlAnswer.error(failure))")
                throw ExitStatus.invalidConfiguration
            }
        }
    }
}

/// Says on stderr, at most once a second and once at the end, how many samples the tap left
/// out: the server reports every thinned batch, which would flood a terminal.
struct SkipReport {
    private var pending = 0
    private var total = 0
    private var last = Date()

    mutating func add(_ n: Int) {
        pending += n
        total += n
        if Date().timeIntervalSince(last) >= 1 {
            printError("daq tap: \(pending) samples skipped in the last second to keep up")
            pending = 0
            last = Date()
        }
    }

    func finish() {
        if total > 0 { printError("daq tap: \(total) samples skipped in all (the pipeline never waits for a tap)") }
    }
}

/// Reading `{"ok":false,"error":"…"}` answers.
enum ControlAnswer {
    static func error(_ line: String) -> String {
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return object?["error"] as? String ?? line
    }
}
