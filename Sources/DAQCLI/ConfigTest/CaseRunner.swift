import DAQCore
import DAQSHA256
import Dispatch
import Foundation
import Synchronization
import Yams

/// What one case's run produced, for the assertions.
struct CaseOutcome {
    var result: RunResult?
    /// Why the run could not start, when it could not.
    var startFailure: String?
    /// Each running component's output batches, in order: what it emitted, or what a sink wrote.
    var batches: [String: [Batch]]
    var events: [PipelineEvent]
    /// Why a component of the pipeline did not run in this case.
    var removed: [String: String]
    var workspace: CaseWorkspace
    /// The files each sink wrote (a console sink: its captured standard output).
    var files: [String: [String]]
    /// The case's timeout, when the run had to be stopped at it.
    var timedOut: Double?
    /// Samples for a source that could not be published.
    var publishFailures: [Failure] = []
}

/// Runs one case: feeds its input, runs the pipeline on the case's clock (virtual unless it says
/// otherwise) and batch size, observes it.
struct CaseRunner {
    let file: TestFile
    let registry: PluginRegistry
    /// The pipeline as written, for the file names of its `path` keys.
    let pipelineNode: Node?
    /// The variables of the file's running services (`RESOLVER_URL`): they win over the
    /// process's environment, and the test file's `env` wins over them.
    var serviceEnvironment: [String: String] = [:]

    /// - Throws: ``ConfigError`` when the case's overrides make the pipeline invalid; other
    ///   errors when the workspace cannot be written.
    func run(_ c: TestCase, in directory: String) throws -> CaseOutcome {
        let environment = ProcessInfo.processInfo.environment.merging(serviceEnvironment) { $1 }
            .merging(file.environment) { $1 }.merging(c.environment) { $1 }
        var workspace = try CaseWorkspace(root: directory)
        try workspace.write(c.feeds, pipeline: pipelineNode, environment: environment)
        let userOverrides = (file.overrides + c.overrides).map(\.argument)
        // Loaded once to learn the sinks, whatever the case's overrides add.
        let plain = try PipelineLoader(
            registry: registry, environment: environment, overrides: userOverrides, contentHash: .sha256
        )
        .load(file: file.pipeline)
        workspace.redirect(plain.components, pipeline: pipelineNode, environment: environment)
        var overrides = userOverrides + ["clock=\(c.clock.rawValue)"] + workspace.overrides
        if let speed = c.speed { overrides.append("speed=\(speed)") }
        for (source, publication) in workspace.publications.sorted(by: { $0.key < $1.key }) {
            // Without a count of its own, the source ends once every published sample is in.
            let key = "sources.\(source).count"
            if CaseWorkspace.configured(pipelineNode, "sources", source, ["count"], environment: [:]) == nil
                && !userOverrides.contains(where: { $0.hasPrefix(key + "=") })
            {
                overrides.append("\(key)=\(publication.count)")
            }
        }
        var rewrite = PipelineRewrite(
            spec: try PipelineLoader(
                registry: registry, environment: environment, overrides: overrides, contentHash: .sha256
            ).load(
                file: file.pipeline))
        for feed in c.feeds {
            guard let samples = workspace.sampleFiles[feed.component] else { continue }
            try rewrite.feed(feed.component, samples: samples, streamName: feed.streamName, registry: registry)
        }
        rewrite.prune()
        let publisher = CasePublisher(
            registry: registry, pipeline: pipelineNode, environment: environment, publications: workspace.publications,
            feeds: c.feeds)
        var options = RunOptions(flushInterval: 0, contentHash: .sha256)
        // A case's run starts at 1970-01-01T00:00:00Z: what is stamped on the run's clock (a
        // generator's timestamps, its windows' bounds) reads as seconds since the start, the
        // same in every run, so a case can expect it.
        options.startDate = 0
        if let size = c.batchSize { options.batchSize = size }
        return observe(
            rewrite.spec, removed: rewrite.removed, workspace: workspace, publisher: publisher, timeout: c.timeout,
            options: options)
    }

    private func observe(
        _ spec: PipelineSpec, removed: [String: String], workspace: CaseWorkspace, publisher: CasePublisher,
        timeout: Double, options: RunOptions
    ) -> CaseOutcome {
        let seen = Observed()
        var outcome = CaseOutcome(
            result: nil, startFailure: nil, batches: [:], events: [], removed: removed, workspace: workspace, files: [:]
        )
        do {
            let run = try PipelineRun(
                spec: spec, options: options,
                observers: [ClosureObserver { e in seen.events.withLock { $0.append(e) } }])
            for name in spec.components.map(\.name) {
                run.observe(component: name) { b in seen.batches.withLock { $0[name, default: []].append(b) } }
            }
            // Console sinks write to standard output: captured, so the runner's own output stays clean.
            let timedOut = Atomic<Bool>(false)
            let timer = DispatchWorkItem {
                timedOut.store(true, ordering: .relaxed)
                run.stop()
            }
            outcome.result = try StandardOutputCapture.redirect(to: workspace.consoleCapture) {
                try run.start()
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: timer)
                // Sources have subscribed once start returns: nothing published is missed.
                outcome.publishFailures = publisher.publish()
                if !outcome.publishFailures.isEmpty { run.stop() }
                return run.wait()
            }
            timer.cancel()
            if timedOut.load(ordering: .relaxed) { outcome.timedOut = timeout }
        } catch {
            outcome.startFailure = "\(error)"
        }
        outcome.events = seen.events.withLock { $0 }
        outcome.batches = seen.batches.withLock { $0 }
        for c in spec.components where c.kind == .sink {
            outcome.files[c.name] =
                c.plugin.typeName == "console" ? [workspace.consoleCapture] : workspace.files(of: c.name)
        }
        return outcome
    }
}

/// What observers saw; they call in from the stages' queues, hence the locks.
private final class Observed: Sendable {
    let events = Mutex<[PipelineEvent]>([])
    let batches = Mutex<[String: [Batch]]>([:])
}
