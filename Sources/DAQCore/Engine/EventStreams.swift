import Synchronization

/// What a bounded stream discarded because its consumer fell behind.
///
/// # Thread safety
/// Atomics: the producing stage adds, the consumer reads, neither waits.
final class DropCounter: Sendable {
    private let items = Atomic<Int>(0)
    private let samples = Atomic<Int>(0)

    /// Counts one discarded item of `samples` samples.
    func add(_ samples: Int) {
        items.wrappingAdd(1, ordering: .relaxed)
        self.samples.wrappingAdd(samples, ordering: .relaxed)
    }

    var itemCount: Int { items.load(ordering: .relaxed) }
    var sampleCount: Int { samples.load(ordering: .relaxed) }
}

/// A run's events from the moment it was asked for, as ``PipelineRun/events`` and
/// ``PipelineRun/events(buffering:)`` give them: an `AsyncSequence` of ``PipelineEvent``.
///
/// It keeps at most its buffer's worth of events its consumer has not taken yet. When the
/// consumer is slower, the *oldest* waiting events are discarded, so the last ones, the run's
/// final state among them, always arrive; ``dropped`` counts what was discarded. The sequence
/// ends after the run's final state event (`finished`, `failed` or `cancelled`, with
/// `component == nil`) and any record failure published after it; asked for after the run has
/// ended, it is empty. Iterate it once: each ``PipelineRun/events`` is a stream of its own.
public struct PipelineEventStream: AsyncSequence, Sendable {
    public typealias Element = PipelineEvent
    public typealias Failure = Never
    public typealias AsyncIterator = AsyncStream<PipelineEvent>.Iterator

    let stream: AsyncStream<PipelineEvent>
    let drops: DropCounter

    /// Events discarded so far because the consumer fell a full buffer behind.
    public var dropped: Int { drops.itemCount }

    public func makeAsyncIterator() -> AsyncStream<PipelineEvent>.Iterator {
        stream.makeAsyncIterator()
    }
}

/// The batches one component produces, as ``PipelineRun/samples(of:buffering:)`` gives them:
/// an `AsyncSequence` of ``Batch``, like a `daq tap` that never holds the pipeline back.
///
/// The component's queue hands each batch over without waiting. When the consumer has a full
/// buffer of batches not yet taken, a new batch is discarded (the waiting ones are kept, as a
/// tap keeps its queue) and counted in ``droppedBatches`` and ``droppedSamples``. The sequence
/// ends when the run has ended, after the component's last batch.
public struct BatchStream: AsyncSequence, Sendable {
    public typealias Element = Batch
    public typealias Failure = Never
    public typealias AsyncIterator = AsyncStream<Batch>.Iterator

    let stream: AsyncStream<Batch>
    let drops: DropCounter

    /// Batches discarded so far because the consumer fell a full buffer behind.
    public var droppedBatches: Int { drops.itemCount }
    /// The samples in those batches.
    public var droppedSamples: Int { drops.sampleCount }

    public func makeAsyncIterator() -> AsyncStream<Batch>.Iterator {
        stream.makeAsyncIterator()
    }
}
