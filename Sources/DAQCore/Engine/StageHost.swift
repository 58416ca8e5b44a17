/// What a stage may ask of the run it belongs to, and all it may: report events, failures and
/// its end, record what it wrote and found, know whether the run is paused, and find another
/// stage to observe. A plugin reaches the run only through its ``StageContext``, which goes
/// through this; nothing about a stream travels this way (descriptors go with the batches).
///
/// # Thread safety
/// Every requirement may be called from any stage's queue.
protocol StageHost: AnyObject, Sendable {
    /// Where the run's directories, files, streams and notes are recorded.
    var recorder: RunRecorder { get }
    /// Whether the run is paused now.
    var isPaused: Bool { get }
    /// Sends an event to the run's observers.
    func publish(_ event: PipelineEvent)
    /// `stage` failed: the run fails with its first error.
    func stageFailed(_ stage: StageRuntime)
    /// `stage` has ended.
    func stageFinished(_ stage: StageRuntime)
    /// `stage` admitted the last of `--max-samples`: every other source stops.
    func maxSamplesReached(by stage: StageRuntime)
    /// The newest stage of component `name`, for a stage that observes or waits for another.
    func stage(named name: String) -> StageRuntime?
}

extension PipelineRun: StageHost {}
