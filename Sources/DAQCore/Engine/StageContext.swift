import Dispatch
import Foundation

/// What the engine offers a plugin while it runs: its name, the run clock, step paths, and
/// the ways to report what happened.
///
/// # Thread safety
/// Every method may be called from any queue; a plugin's own callbacks (a socket's read handler)
/// call ``wake()`` and the engine takes it from there on the stage's queue.
public final class StageContext: Sendable {
    /// The component's name.
    public let name: String
    /// The pipeline's name.
    public let pipelineName: String
    /// The run clock.
    public let clock: RunClock
    /// The run's steps: the pipeline's schedule and any a stage added.
    public let schedule: StepSchedule
    /// The run's steps now, ordered by time.
    public var steps: [StepSpec] { schedule.snapshot().steps }
    /// The run's output directory when one was given (`daq run --output`), else `nil`.
    public let runDirectory: String?
    /// Whether this instance replaces one of the same component earlier in the run (a reload
    /// restarted it): what that instance wrote is the run's data, so files are continued or
    /// written beside it, never overwritten.
    public let isRestart: Bool
    /// Weak: a plugin's callback can outlive its run (a child process's exit, a late HTTP
    /// answer); after the run is gone, what it reports is dropped instead of crashing.
    nonisolated(unsafe) weak var stage: StageRuntime?
    /// Keeps a detached stage alive; `nil` inside a pipeline, which owns its stages.
    nonisolated(unsafe) var owner: AnyObject?

    init(
        stage: StageRuntime, pipelineName: String, clock: RunClock, schedule: StepSchedule, runDirectory: String?,
        isRestart: Bool = false
    ) {
        self.stage = stage
        self.isRestart = isRestart
        self.name = stage.name
        self.pipelineName = pipelineName
        self.clock = clock
        self.schedule = schedule
        self.runDirectory = runDirectory
    }

    /// The step path current at run-clock `uptime`: the last step whose time has come, or `""`.
    public func stepPath(at uptime: Double) -> String {
        StepSchedule.path(at: uptime, in: steps)
    }

    /// Makes `path` the run's step from run-clock `uptime` on: every sink writes its marker
    /// before its first sample at or after that time, and sources stamp it on later samples.
    public func changeStep(to path: String, at uptime: Double) {
        schedule.add(StepSpec(path: path, at: uptime))
    }

    /// Calls `handler` for every ``ControlCommand`` sent to the run that names this stage or
    /// none. It runs on the sender's thread: record the command and ``wake()``.
    public func onControl(_ handler: @escaping @Sendable (ControlCommand) -> Void) {
        stage?.controlHandlers.withLock { $0.append(handler) }
    }

    /// Delivers `command` to this stage's handlers as ``PipelineRun/send(_:)`` would; for
    /// harnesses that run a stage outside a pipeline.
    public func receive(_ command: ControlCommand) {
        stage?.control(command)
    }

    /// Calls `handler` with every batch component `name` emits, on that stage's queue; for a
    /// stage that reacts to another's data without being downstream of it (a sample that
    /// triggers a scan). Returns `false` when there is no such component.
    @discardableResult
    public func observe(_ name: String, _ handler: @escaping @Sendable (Batch) -> Void) -> Bool {
        guard let other = stage?.host?.stage(named: name) else { return false }
        other.addTap(handler)
        return true
    }

    /// The run-clock time the run ends at, once that is known: `--duration`, or when a stop was
    /// asked for. Samples stamped at or after it are dropped with the run's end, so a live source
    /// that acknowledges what it takes (an MQTT QoS 1 message) leaves such input unacknowledged
    /// for its next run rather than take it and lose it. `nil` while the end is open.
    public var endUptime: Double? {
        guard let links = stage?.links else { return nil }
        switch (links.limits.duration, links.watermark.stopTime) {
        case (let d?, let s?): return min(d, s)
        case (let d?, nil): return d
        case (nil, let s): return s
        }
    }

    /// How many samples this source may hand over in all, those it already has included: the
    /// run's `--max-samples` less what the other sources gave. Past it, samples are dropped with
    /// the run's end, so a live source that acknowledges what it takes counts what it took and
    /// leaves the rest unacknowledged instead. `nil` without that limit. Exact for a source that
    /// alone feeds the limit; with others, theirs may use up the room between two of its reads.
    public var sampleBudget: Int? {
        guard let stage, let links = stage.links else { return nil }
        return links.limits.budget(for: stage.name)
    }

    /// Wall time at run start, seconds since 1970: add a sample's uptime for its timestamp.
    public var startDate: Double { clock.startDate }

    /// Tells the engine a source has data again after returning ``SourceStatus/idle``, or that
    /// a ``DeferredWork`` plugin takes input again or has finished its pending work.
    public func wake() { stage?.wake() }

    /// Runs `work` on the stage's serial queue, after whatever the queue is doing now: how a
    /// completion handler on another thread (an HTTP response) gets back to the plugin's state.
    public func perform(_ work: @escaping @Sendable () -> Void) {
        stage?.queue.async(execute: work)
    }

    /// Emits a batch outside `process` (from a timer); ignored for sinks.
    public func emit(_ batch: Batch) {
        stage?.emitFromPlugin(batch)
    }

    /// Asks for ``Transform/tick(now:context:)`` when the run clock reaches `uptime`; a later
    /// request replaces an earlier one. Under the virtual clock the tick comes by data time:
    /// before the first batch stamped at or after `uptime`, or at the end of input.
    ///
    /// A source that returned ``SourceStatus/idle`` is read again at `uptime` (a poll's next
    /// time) with no timer of its own; under the virtual clock no such wake comes.
    public func requestTick(atUptime uptime: Double) {
        stage?.requestTick(atUptime: uptime)
    }

    /// The run's directory under `base` (`OUT/<pipeline>-<UTC start>/`), created on first use and
    /// described by a `manifest.json` at the end of the run.
    /// - Throws: when it cannot be created.
    public func runDirectory(under base: String) throws -> String {
        guard let recorder = stage?.host?.recorder else {
            // Outside a pipeline (a test harness): a directory of its own, without a manifest.
            let dir = (base as NSString).appendingPathComponent(
                RunRecorder.directoryName(pipeline: pipelineName, start: startDate))
            try FileManagerShim.createDirectory(dir)
            return dir
        }
        return try recorder.directory(under: base)
    }

    /// Records a file this sink writes, for the run's manifest; call again to update the counts.
    public func recordOutput(path: String, format: String, samples: Int, bytes: Int) {
        stage?.host?.recorder.record(
            RunRecorder.OutputFile(path: path, format: format, samples: samples, bytes: bytes))
    }

    /// Describes a file this source reads (a device recording: format, device, rate, start, zone)
    /// in the run manifest's `inputs`; call again with the same `path` field to update it.
    public func recordInput(_ fields: Fields) {
        stage?.host?.recorder.recordInput(component: name, fields)
    }

    /// Records what this stage found out about the run's data (a calibration fit) in the run
    /// manifest's `results`, under the component's name; call again to replace it.
    public func recordResult(_ fields: Fields) {
        stage?.host?.recorder.recordResult(component: name, fields)
    }

    /// Tells the user something the stage found out (a detected unit); also kept in the manifest.
    /// Past the first few of a kind, a flood is counted and summarised (``ReportLimiter``).
    public func notice(_ message: String) {
        stage?.host?.recorder.note(component: name, severity: .notice, message)
        stage?.publish(.notice(component: name, message: message))
    }

    /// Reports a problem the stage recovered from; counted as an error and sent to observers.
    /// Every one is counted; past the first few of a kind they are summarised (``ReportLimiter``).
    public func warn(_ message: String) {
        stage?.host?.recorder.note(component: name, severity: .warning, message)
        stage?.noteError(message, fatal: false)
    }

    /// The component's `on_error` policy. A plugin with its own "skip bad input" setting skips
    /// also when this is not ``ErrorPolicy/stop``, and hands what it skipped to ``reject(raw:uptime:reason:)``.
    public var errorPolicy: ErrorPolicy { stage?.onError ?? .stop }

    /// Samples this stage could not process (a sink's destination refused them after its retries):
    /// failed, skipped or sent to `<component>.dead` by the component's `on_error`. Returns
    /// `false` when the policy is `stop` and the stage is failing.
    @discardableResult
    public func reject(_ batch: Batch, reason: String) -> Bool {
        stage?.reject(batch, reason: reason) ?? false
    }

    /// Input that never became a sample — a bad row, an undecodable report — kept as text in
    /// the dead letter's `raw` field, stamped `uptime` on the run clock.
    @discardableResult
    public func reject(raw: String, uptime: Double, reason: String) -> Bool {
        stage?.reject(raw: raw, uptime: uptime, reason: reason) ?? false
    }

    /// Fails the stage from outside `process` or `write` — a helper process died, a connection
    /// broke for good — as if the plugin had thrown there: the error is reported and the run stops.
    public func fail(_ message: String) {
        guard let stage else { return }
        stage.failFromPlugin(stage.daqError(message))
    }

    /// Fails the stage with `error` from outside `process` or `write`, as the text-only form
    /// does; a ``DAQError`` or ``DAQErrorConvertible`` keeps its code and location.
    public func fail(_ error: any Error) {
        guard let stage else { return }
        stage.failFromPlugin(stage.daqError(error))
    }

    /// Reports a timeout (a scan session, a device that stopped answering).
    public func timeout(_ message: String) {
        stage?.publish(.timeout(component: name, message: message))
    }

    /// Sinks: `bytes` more were written to the output stream by the current `write`.
    public func wrote(bytes: Int) {
        stage?.stats.withLock { $0.bytes += bytes }
        stage?.metrics?.bytes.increment(by: Int64(bytes))
    }

    /// Sinks: `bytes` of one large message of `total` bytes have reached the output stream.
    public func progress(bytes: Int, total: Int) {
        stage?.publish(.progress(sink: name, bytes: bytes, total: total))
    }

    /// Sinks with an on-disk queue: `samples` are held there now, accepted but not yet
    /// acknowledged; what is left at the end is sent by the next run.
    public func spooled(samples: Int) {
        stage?.stats.withLock { $0.spooled = samples }
    }

    /// Sinks: the destination acknowledged `samples`.
    public func delivered(samples: Int, bytes: Int = 0) {
        stage?.stats.withLock { $0.delivered += samples }
        stage?.metrics?.delivered.increment(by: Int64(samples))
        stage?.publish(.delivered(sink: name, samples: samples, bytes: bytes))
    }

    /// Sinks that send messages with ids of their own: the messages `ids` were sent (handed to
    /// the transport), delivered or failed. Reported next to ``delivered(samples:bytes:)`` and
    /// ``failed(samples:message:raw:)``, so an observer can tell which messages those concern.
    public func messages(_ status: MessageStatus, ids: [String]) {
        guard !ids.isEmpty else { return }
        stage?.publish(.messages(sink: name, status: status, ids: ids))
    }

    /// Sinks: `samples` could not be delivered.
    public func failed(samples: Int, message: String) {
        failed(samples: samples, message: message, raw: [])
    }

    /// Sinks: samples already counted as sent will never be delivered (a message the protocol
    /// cannot carry, one lost with its connection). Counted as failed and as one error, like
    /// ``failed(samples:message:)``; under `on_error: dead_letter` each text of `raw` (what was
    /// to be sent, such as a message's payload) also goes to `<component>.dead`, so nothing is
    /// lost unrecorded. `raw` is evaluated only then, so no payload is decoded for nothing. Unlike ``reject(_:reason:)`` this never fails the stage under `stop`:
    /// the samples were accepted long ago and the run's input has moved on.
    public func failed(samples: Int, message: String, raw: @autoclosure () -> [String]) {
        stage?.stats.withLock {
            $0.failed += samples
            $0.errors += 1
        }
        stage?.metrics?.failed.increment(by: Int64(samples))
        stage?.metrics?.errors.increment()
        stage?.publish(.sinkFailed(sink: name, samples: samples, message: message))
        guard let stage, stage.onError == .deadLetter else { return }
        let texts = raw()
        guard !texts.isEmpty else { return }
        // Dead letters go downstream from the stage's own queue, as everything it emits does.
        stage.holdUndelivered(raw: texts, uptime: clock.now(), reason: message)
    }
}
