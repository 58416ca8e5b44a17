import DAQCore
import DAQSHA256
import Dispatch
import Foundation
import Synchronization

/// How one recording of a batch went.
struct BatchResult: Sendable {
    enum Status: String, Sendable {
        case finished, failed, skipped
        /// Cancelled by SIGINT or SIGTERM; what it wrote is removed, so the next batch runs it again.
        case interrupted
        /// Not started: the batch was interrupted first.
        case notRun = "not run"
    }
    var input: String
    var samples: Int
    var seconds: Double
    var status: Status
    var error: String?
    /// The verdicts of the results the run recorded (a calibration fit accepted or not).
    var verdicts: [ResultVerdict] = []
}

/// Runs a batch's recordings in-process, `jobs` at a time, and keeps the progress counters.
///
/// ``interrupt()`` cancels the runs under way and starts no more: an interrupted recording
/// leaves neither its run directory nor a `batch.json`, so the next batch runs it again from
/// the start instead of finding a stale folder or a manifest that says `running`.
///
/// # Thread safety
/// Counters and results sit behind one `Mutex`; runs execute on Dispatch's global pool.
final class BatchRunner: Sendable {
    let plan: BatchPlan
    let registry: PluginRegistry
    let overrides: [String]
    let pipeline: String
    let jobs: Int
    private let state = Mutex(
        (
            done: 0, samples: 0, results: [BatchResult](), active: [ObjectIdentifier: PipelineRun](),
            interrupted: false
        ))
    let started = Date()
    /// Recordings under way, and the run started last with its recording: what
    /// `daq batch --view` shows.
    private let watch = Mutex<(running: Set<String>, latest: (input: String, run: PipelineRun)?)>(([], nil))

    init(plan: BatchPlan, registry: PluginRegistry, overrides: [String], pipeline: String, jobs: Int) {
        self.plan = plan
        self.registry = registry
        self.overrides = overrides
        self.pipeline = pipeline
        self.jobs = jobs
    }

    /// Files done, samples so far (finished runs and the sources of running ones), and the total.
    var progress: (done: Int, samples: Int, total: Int) {
        let (done, finished, active) = state.withLock { ($0.done, $0.samples, Array($0.active.values)) }
        let running = active.map { $0.statistics.filter { $0.kind == .source }.map(\.samplesOut).reduce(0, +) }.reduce(
            0, +)
        return (done, finished + running, plan.items.count)
    }

    /// Whether ``interrupt()`` was called.
    var isInterrupted: Bool { state.withLock { $0.interrupted } }

    /// Runs under way now.
    var activeCount: Int { state.withLock { $0.active.count } }

    /// The run started last, while it is under way, with its recording.
    var current: (input: String, run: PipelineRun)? {
        watch.withLock { w in w.latest.flatMap { w.running.contains($0.input) ? $0 : nil } }
    }

    /// Every recording's status so far, in input order: its result's, `running`, or `waiting`.
    var statuses: [(input: String, status: String)] {
        let results = state.withLock { $0.results }
        let running = watch.withLock { $0.running }
        let done = Dictionary(results.map { ($0.input, $0.status.rawValue) }, uniquingKeysWith: { a, _ in a })
        return plan.items.map { ($0.input, done[$0.input] ?? (running.contains($0.input) ? "running" : "waiting")) }
    }

    /// Cancels every run under way and starts no more.
    func interrupt() {
        let active = state.withLock { s -> [PipelineRun] in
            s.interrupted = true
            return Array(s.active.values)
        }
        for run in active { run.cancel() }
    }

    /// Runs every item and returns the results in input order.
    func runAll() -> [BatchResult] {
        let slots = DispatchSemaphore(value: jobs)
        let group = DispatchGroup()
        for item in plan.items {
            slots.wait()
            if isInterrupted {
                slots.signal()
                state.withLock {
                    $0.results.append(
                        BatchResult(input: item.input, samples: 0, seconds: 0, status: .notRun, error: nil))
                }
                continue
            }
            group.enter()
            DispatchQueue.global().async {
                let result = self.run(item)
                self.state.withLock {
                    $0.done += 1
                    $0.samples += result.status == .finished ? result.samples : 0
                    $0.results.append(result)
                }
                slots.signal()
                group.leave()
            }
        }
        group.wait()
        let order = Dictionary(uniqueKeysWithValues: plan.items.enumerated().map { ($1.input, $0) })
        return state.withLock { $0.results }.sorted { order[$0.input]! < order[$1.input]! }
    }

    /// The configuration hash of `item`'s run, as its `batch.json` records it.
    func configHash(of item: BatchPlan.Item) throws -> String {
        try PipelineLoader(registry: registry, overrides: overrides + item.overrides, contentHash: .sha256).load(
            file: pipeline
        ).configHash
    }

    private func run(_ item: BatchPlan.Item) -> BatchResult {
        let start = Date()
        let spec: PipelineSpec
        do {
            spec = try PipelineLoader(
                registry: registry, overrides: overrides + item.overrides, contentHash: .sha256
            ).load(file: pipeline)
        } catch {
            return BatchResult(input: item.input, samples: 0, seconds: 0, status: .failed, error: error.description)
        }
        let recordPath = (item.directory as NSString).appendingPathComponent("batch.json")
        if let record = BatchRecord.read(recordPath), record.status == "finished",
            record.configSHA256 == spec.configHash
        {
            return BatchResult(
                input: item.input, samples: record.samples, seconds: 0, status: .skipped, error: nil,
                verdicts: record.verdicts ?? [])
        }
        // A stale record must not survive a failed re-run.
        try? FileManager.default.removeItem(atPath: recordPath)
        var result: BatchResult
        var directories: [String] = []
        do {
            let run = try PipelineRun(spec: spec, options: RunOptions(contentHash: .sha256))
            // Registered and checked under one lock before the start, whose first pass (calibration:
            // auto) may take a while: an interrupt either sees this run or is seen here.
            let late = state.withLock { s -> Bool in
                s.active[ObjectIdentifier(run)] = run
                return s.interrupted
            }
            func unregister() -> Bool {
                state.withLock { s -> Bool in
                    s.active[ObjectIdentifier(run)] = nil
                    return s.interrupted
                }
            }
            func interrupted() -> BatchResult {
                discard(run, item: item)
                return BatchResult(
                    input: item.input, samples: 0, seconds: Date().timeIntervalSince(start), status: .interrupted,
                    error: nil)
            }
            if late {
                _ = unregister()
                return interrupted()
            }
            do {
                try run.start()
            } catch {
                guard unregister() else { throw error }
                return interrupted()
            }
            // An interrupt that came while the run was not yet starting found nothing to cancel.
            if isInterrupted { run.cancel() }
            watch.withLock {
                $0.running.insert(item.input)
                $0.latest = (item.input, run)
            }
            let outcome = run.wait()
            watch.withLock { _ = $0.running.remove(item.input) }
            if unregister() && outcome.state != .finished { return interrupted() }
            directories = run.recorder.directories.map { Self.relative($0, to: item.directory) }
            let samples = outcome.stages.filter { $0.kind == .source }.map(\.samplesOut).reduce(0, +)
            result = BatchResult(
                input: item.input, samples: samples, seconds: Date().timeIntervalSince(start),
                status: outcome.state == .finished && outcome.recordProblems.isEmpty ? .finished : .failed,
                error: outcome.failureLine ?? outcome.recordProblems.first, verdicts: run.recorder.verdicts)
        } catch {
            result = BatchResult(
                input: item.input, samples: 0, seconds: Date().timeIntervalSince(start), status: .failed,
                error: "\(error)")
        }
        BatchRecord(
            input: item.input, configSHA256: spec.configHash, status: result.status.rawValue, samples: result.samples,
            seconds: result.seconds, error: result.error, directories: directories,
            verdicts: result.verdicts.isEmpty ? nil : result.verdicts
        ).write(recordPath)
        return result
    }

    /// `path` relative to `base` when it lies inside it, else as it is.
    static func relative(_ path: String, to base: String) -> String {
        let p = (path as NSString).standardizingPath
        let b = (base as NSString).standardizingPath
        return p.hasPrefix(b + "/") ? String(p.dropFirst(b.count + 1)) : p
    }

    /// Removes what an interrupted run wrote: its run directories, and the recording's folder
    /// when nothing else is in it.
    private func discard(_ run: PipelineRun, item: BatchPlan.Item) {
        for dir in run.recorder.directories { try? FileManager.default.removeItem(atPath: dir) }
        if (try? FileManager.default.contentsOfDirectory(atPath: item.directory))?.isEmpty == true {
            try? FileManager.default.removeItem(atPath: item.directory)
        }
    }

}

/// `OUTPUT/<name>/batch.json`: what a batch run of one recording did, for resuming.
struct BatchRecord: Codable {
    var input: String
    var configSHA256: String
    var status: String
    var samples: Int
    var seconds: Double
    var error: String?
    /// The run directories the run wrote, relative to the recording's folder, so that
    /// `--collect` finds the finished run's files among those of earlier failed runs. Absent
    /// in records of an older `daq`.
    var directories: [String]?
    /// The verdicts of the results the run recorded, for `--collect`'s columns; absent when it
    /// recorded none, and in records of an older `daq`.
    var verdicts: [ResultVerdict]?

    static func read(_ path: String) -> BatchRecord? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        return try? JSONDecoder().decode(BatchRecord.self, from: data)
    }

    func write(_ path: String) {
        let dir = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        guard let data = try? JSONEncoder().encode(self) else { return }
        let temp = path + ".tmp"
        if FileManager.default.createFile(atPath: temp, contents: data) { _ = rename(temp, path) }
    }
}
