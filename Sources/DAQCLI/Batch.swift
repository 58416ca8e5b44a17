import ArgumentParser
import DAQCore
import DAQSHA256
import Dispatch
import Foundation
import Synchronization

extension DAQCommand {
    struct Batch: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Run a pipeline once per recording, several at a time, on the virtual clock.",
            discussion: """
                For each input the pipeline's source path is replaced by that recording, and every \
                sink writes under OUTPUT/<recording name>/ (a `directory` becomes that folder, a \
                `path` keeps its file name inside it). A recording that fails does not stop the \
                batch; the end prints a table and daq exits 1 if any failed.

                Re-running skips recordings whose batch record (OUTPUT/<name>/batch.json) says they \
                finished with the same configuration hash, so an interrupted batch resumes.

                SIGINT (Ctrl-C) or SIGTERM interrupts: the runs under way are cancelled and what \
                they wrote is removed, no further recording is started, the table marks them \
                "interrupted" and "not run", and daq exits 130. A second signal exits at once.

                --shard K/N takes a stable 1/N share of the inputs (by a hash of each path), so N \
                array jobs of a cluster scheduler split the work without overlap:
                  #SBATCH --array=1-8
                  daq batch features.yaml --input 'data/*.csv' --output out --shard $SLURM_ARRAY_TASK_ID/8
                A shard that gets none of the inputs has nothing to do and exits 0.

                --collect NAME merges the file called NAME that every recording's run wrote (a CSV \
                file with a header row, or JSON Lines) into one table, OUTPUT/NAME, with a \
                `recording` column first: rows in the order of the recordings' names, the header \
                once; CSV headers that differ are an error naming the file and column. It runs after \
                the batch, and only when every recording finished. A sharded batch collects in a last \
                step, once every array task has finished: the same command with --collect-only and \
                without --shard runs nothing and collects, or lists the recordings that did not finish:
                  daq batch features.yaml --input 'data/*.csv' --output out --collect features.csv --collect-only
                """)

        @Argument(help: "The pipeline file.", completion: .file(extensions: ["yaml", "yml"]))
        var pipeline: String

        @Option(name: .long, parsing: .upToNextOption, help: "Recordings: paths or glob patterns (quote them).")
        var input: [String]

        @Option(help: "The directory that receives one folder per recording.")
        var output: String

        // Optional, so --help states the default once, in words, not also as this machine's number.
        @Option(help: "Runs at a time (default: the number of cores).")
        var jobs: Int?

        @Option(help: "K/N: run only the K-th of N stable shares of the inputs (K from 1).")
        var shard: String?

        @Option(help: "The source whose path is replaced, when the pipeline has several.")
        var source: String?

        @Option(name: .customLong("set"), help: "Override a key in every run: --set transforms.win.size=2s.")
        var overrides: [String] = []

        @Option(help: "The progress bar: auto (on a terminal), always or never.")
        var progress: StatusMode = .auto

        @Option(
            help: ArgumentHelp(
                "After the batch, merge each recording's file of this name (.csv or .jsonl) into OUTPUT/NAME.",
                valueName: "name"))
        var collect: String?

        @Flag(help: "Run nothing; only --collect (the last step of a sharded batch).")
        var collectOnly = false

        @Option(
            help: ArgumentHelp(
                "Serve a live page of the batch at [HOST:]PORT: progress per recording, and the signals of the one started last.",
                discussion: "127.0.0.1 unless a host is given; port 0 picks one. See 'daq view --help'."))
        var view: String?

        @Option(help: "The token a --view on a non-loopback address requires (generated and printed when left out).")
        var viewToken: String?

        func validate() throws {
            if let jobs {
                if jobs < 1 { throw ValidationError("--jobs must be at least 1") }
                try OptionRange.check(jobs, "--jobs", in: OptionRange.jobs)
            }
            if let shard, BatchPlan.parseShard(shard) == nil {
                throw ValidationError("--shard expects K/N with 1 ≤ K ≤ N, e.g. 3/8; found '\(shard)'")
            }
            if collectOnly && collect == nil { throw ValidationError("--collect-only needs --collect NAME") }
            if let view {
                do { _ = try ViewListen.parse(view) } catch { throw ValidationError("--view: \(error)") }
            }
            if viewToken != nil && view == nil { throw ValidationError("--view-token needs --view") }
            if collect != nil && shard != nil {
                throw ValidationError(
                    "--collect needs every recording: after all shards finished, run the batch with --collect-only and without --shard"
                )
            }
            if let collect {
                do { _ = try BatchCollector(name: collect, output: output) } catch {
                    throw ValidationError("\(error)")
                }
            }
        }

        func run() throws {
            let registry = PluginSet.current
            let base: PipelineSpec
            do {
                base = try PipelineLoader(registry: registry, overrides: overrides, contentHash: .sha256).load(
                    file: pipeline)
            } catch {
                for d in error.diagnostics { printError(d.description) }
                throw ExitStatus.invalidConfiguration
            }
            var plan: BatchPlan
            do {
                plan = try BatchPlan(spec: base, inputs: input, output: output, source: source)
            } catch {
                printError("daq: \(error)")
                throw ExitStatus.invalidConfiguration
            }
            if plan.items.isEmpty {
                printError("daq: no recordings to run (the inputs matched nothing)")
                throw ExitStatus.invalidConfiguration
            }
            if let shard, let (k, n) = BatchPlan.parseShard(shard) {
                let all = plan.items.count
                plan.keepShard(k, of: n)
                if plan.items.isEmpty {
                    // Not an error: with few inputs some array tasks of a cluster get none.
                    printError("daq: shard \(shard) has none of the \(all) recordings; nothing to do")
                    return
                }
            }
            let runner = BatchRunner(
                plan: plan, registry: registry, overrides: overrides, pipeline: pipeline,
                jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount)
            if collectOnly {
                try collectTable(plan: plan, runner: runner)
                return
            }
            var batchView: BatchView?
            if let view {
                let listen = try ViewListen.parse(view)
                batchView = BatchView(runner: runner, pipeline: base.name)
                do {
                    let url = try batchView!.start(
                        listen: listen, access: ViewAccess.choose(for: listen, token: viewToken))
                    printError("daq: view: \(url)")
                } catch {
                    printError("daq: --view: \(error)")
                    throw ExitStatus.runtimeFailure
                }
            }
            let bar = ProgressBar(runner: runner, enabled: progress.enabled)
            let signals = BatchSignals(runner: runner)
            let results = runner.runAll()
            signals.restore()
            bar.stop()
            batchView?.stop()
            printError(BatchReport.table(results))
            if runner.isInterrupted {
                printError("daq: batch interrupted; run the same command again to run what did not finish")
                throw ExitStatus.cancelled
            }
            if results.contains(where: { $0.status == .failed }) {
                if let collect { printError("daq: \(collect) not collected: not every recording finished") }
                throw ExitStatus.runtimeFailure
            }
            if collect != nil { try collectTable(plan: plan, runner: runner) }
        }

        /// Writes OUTPUT/NAME from every recording's file, or says which recordings stand in the way.
        private func collectTable(plan: BatchPlan, runner: BatchRunner) throws {
            guard let collect else { return }
            do {
                let collector = try BatchCollector(name: collect, output: output)
                let files = try collector.gather(plan.items, configHash: runner.configHash(of:))
                let rows = try collector.merge(files)
                printError(
                    "daq: collected \(rows) rows of \(collect) from \(files.count) recordings into \(collector.destination)"
                )
            } catch {
                printError("daq: \(error)")
                throw ExitStatus.runtimeFailure
            }
        }
    }
}

/// SIGINT and SIGTERM for `daq batch`: the first interrupts the batch (see
/// ``BatchRunner/interrupt()``), the second exits at once.
final class BatchSignals: Sendable {
    nonisolated(unsafe) private var sources: SignalSources!
    /// Touched only on the sources' queue.
    nonisolated(unsafe) private var count = 0

    init(runner: BatchRunner) {
        sources = SignalSources([SIGINT, SIGTERM], label: "daq.batch.signals") { [unowned self] _ in
            self.count += 1
            guard self.count == 1 else {
                printError("daq: batch interrupted again; exiting at once")
                Foundation.exit(130)
            }
            printError(
                "\ndaq: interrupted: cancelling \(runner.activeCount) running recordings and starting no more (signal again to exit at once)"
            )
            runner.interrupt()
        }
    }

    /// Restores default signal handling.
    func restore() {
        sources.restore()
    }
}
