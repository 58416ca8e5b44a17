/// What a stage knows of the streams it reads and emits.
///
/// Call these on the stage's queue (from `start`, `read`, `process`, `write`): the engine keeps
/// descriptors there, in order with the batches.
extension StageContext {
    /// The descriptors of the streams this stage reads now, by stream name (`accel`,
    /// `accel.dead`): known at ``Sink/start(context:)``, before the first sample, and updated
    /// as each batch brings a change.
    public var inputDescriptors: [String: StreamDescriptor] {
        stage?.inputStreams.mapValues(\.descriptor) ?? [:]
    }

    /// The merge of what this stage reads now, in the order of its `inputs`.
    public var inputDescriptor: StreamDescriptor? {
        guard let stage, !stage.inputStreams.isEmpty else { return nil }
        return stage.mergedInput
    }

    /// What this stage emits now; `nil` for a sink.
    public var outputDescriptor: StreamDescriptor? {
        stage?.output?.descriptor
    }

    /// Declares what this stage emits from its next batch on, when it learns it only while
    /// running: an external program's declaration, a header met after the start. The change
    /// goes downstream with that batch.
    /// Called off the stage's queue, it takes effect there, after what is queued before it.
    public func declare(_ descriptor: StreamDescriptor) {
        guard let stage else { return }
        let change = { @Sendable in stage.changeOutput(to: DeclaredStream(descriptor)) }
        if isOnStageQueue { change() } else { stage.queue.async(execute: change) }
    }
}
