import DAQCore
import Dispatch
import Yams

/// Runs one source by hand: reads every batch until it finishes (or goes idle), without pacing.
/// Each call runs on the stage's queue, as in a pipeline, so never at once with the plugin's
/// timers and watches.
///
/// A live source (a pseudo-terminal, a pipe) is read with ``read(until:timeout:)``, which waits
/// for the source's own ``StageContext/wake()`` between reads instead of sleeping.
public final class SourceHarness {
    /// The source under test.
    public let source: any Source
    /// Its context.
    public let context: StageContext
    private let eventLog = Collector<PipelineEvent>()
    private let woken = DispatchSemaphore(value: 0)

    /// Wraps an instance and starts it; the clock is virtual unless given.
    public init(
        _ source: any Source, name: String = "under-test", steps: [StepSpec] = [],
        clock: RunClock = RunClock(mode: .virtual)
    ) throws {
        self.source = source
        let events = eventLog
        let woken = woken
        context = StageContext.detached(
            name: name, kind: .source, clock: clock, steps: steps, onEvent: { events.append($0) },
            onWake: { woken.signal() })
        let context = self.context
        try context.onStageQueue { try source.start(context: context) }
        try context.awaitStart()
    }

    /// Builds a plugin from YAML configuration text and starts it.
    public convenience init<T: SourcePlugin>(
        _ type: T.Type, config yaml: String, name: String = "under-test", clock: RunClock = RunClock(mode: .virtual)
    ) throws {
        let configuration = try PluginConfigLoader.decode(T.Configuration.self, yaml: yaml)
        let context = PluginContext(componentName: name, pipelineName: "test", baseDirectory: "", clock: clock.mode)
        try self.init(T(configuration: configuration, context: context), name: name, clock: clock)
    }

    /// Reads until the source finishes or goes idle, at most `limit` samples, `batchSize` per read.
    /// - Returns: the samples and the last status.
    public func read(limit: Int = .max, batchSize: Int = 1024) throws -> (samples: [Sample], status: SourceStatus) {
        var out: [Sample] = []
        var status = SourceStatus.more
        while status == .more && out.count < limit {
            var b = Batch(stream: context.name)
            let room = min(batchSize, limit - out.count)
            status = try context.onStageQueue { try source.read(into: &b, limit: room, context: context) }
            out.append(contentsOf: b.samples)
        }
        return (out, status)
    }

    /// Reads, waiting for the source to wake between reads, until `done` holds for what was
    /// read, the source finishes, or `timeout` seconds pass without it.
    public func read(until done: ([Sample]) -> Bool, timeout: Double = 10) throws -> [Sample] {
        var out: [Sample] = []
        let deadline = DispatchTime.now() + timeout
        while !done(out) {
            var b = Batch(stream: context.name)
            let status = try context.onStageQueue { try source.read(into: &b, limit: 1024, context: context) }
            out.append(contentsOf: b.samples)
            if status == .finished || done(out) { break }
            if status == .idle, woken.wait(timeout: deadline) == .timedOut { break }
        }
        return out
    }

    /// Sends a control command (a trigger) as a running pipeline would.
    public func send(_ command: ControlCommand) { context.receive(command) }

    /// Stops the source, waiting for a stop that completes later; its timers and watches end
    /// with it, as they do when a stage ends.
    public func stop() {
        context.onStageQueue { source.stop(context: context) }
        // A stop's failure has nowhere to go but the events, as in a pipeline.
        do { try context.awaitEnd() } catch { context.warn("its stop failed: \(error)") }
        context.endTasks()
    }

    /// Events the source reported (warnings for skipped rows among them).
    public var events: [PipelineEvent] { eventLog.all }
}
