import DAQCLI
import DAQCore
import DAQKit
import DAQTesting
import Foundation

/// A pipeline running in this process on its own queues, whose events a test can wait for.
final class LiveRun: Sendable {
    let run: PipelineRun
    let events = Recorder<PipelineEvent>()
    private let finished = Recorder<RunResult>()

    /// Validates `yaml` with every built-in plugin plus `collect`, and starts it, for `duration`
    /// seconds of its clock when one is given (`--duration`), and for `maxSamples` (`--max-samples`).
    init(
        _ yaml: String, environment: [String: String] = [:], overrides: [String] = [], file: String = "test.yaml",
        duration: Double? = nil, maxSamples: Int? = nil, batchSize: Int = 1024
    ) throws {
        let registry = try PluginRegistry(BuiltinPlugins.all + [.collect])
        let spec = try PipelineLoader(registry: registry, environment: environment, overrides: overrides).load(
            text: yaml, file: file)
        let events = self.events
        run = try PipelineRun(
            spec: spec,
            options: RunOptions(maxSamples: maxSamples, duration: duration, batchSize: batchSize, flushInterval: 0.2),
            observers: [ClosureObserver { events.append($0) }])
        try run.start()
        // After start: before it, the run's group is empty and would report finished at once.
        let finished = self.finished
        run.onFinish { finished.append($0) }
    }

    /// Waits for the run to end by itself within `seconds`; stops it otherwise.
    /// - Returns: the result, and whether it ended by itself.
    func finish(within seconds: Double = 30) -> (RunResult, Bool) {
        let byItself = finished.wait(seconds: seconds) { !$0.isEmpty }
        if !byItself { run.stop() }
        return (run.wait(), byItself)
    }

    /// The samples a `collect` sink has received so far (data only).
    func collected(_ sink: String) -> [Sample] {
        ((run.plugin(named: sink) as? CollectSink)?.samples ?? []).filter { $0.kind != .marker }
    }

    /// Samples a sink has been handed so far, from its `sent` events.
    func sent(_ sink: String) -> Int {
        events.all.reduce(0) { if case .sent(sink, let n, _) = $1 { $0 + n } else { $0 } }
    }

    /// Waits until `sink` has been handed at least `count` samples.
    @discardableResult
    func waitForSent(_ sink: String, atLeast count: Int, seconds: Double = 30) -> Bool {
        events.wait(seconds: seconds) { events in
            events.reduce(0) { if case .sent(sink, let n, _) = $1 { $0 + n } else { $0 } } >= count
        }
    }

    /// Notices and warnings of `component`, in order.
    func messages(_ component: String) -> [String] {
        Self.messages(component, in: events.all)
    }

    /// Notices and warnings of `component` among `events`: for use inside ``Recorder/wait(seconds:until:)``,
    /// which holds the recorder's lock.
    static func messages(_ component: String, in events: [PipelineEvent]) -> [String] {
        events.compactMap { e in
            switch e {
            case .notice(component, let m), .warning(component, let m): return m
            default: return nil
            }
        }
    }

    func stats(_ name: String, in result: RunResult) -> StageStatistics? {
        result.stages.first { $0.name == name }
    }
}
