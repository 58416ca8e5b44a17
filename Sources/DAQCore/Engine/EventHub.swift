import Synchronization

/// Hands a run's events to the streams of ``PipelineRun/events``, and finishes those streams and
/// those of ``PipelineRun/samples(of:buffering:)`` once the run has ended.
///
/// A stream's buffer is bounded by its `AsyncStream` policy, so feeding an event never waits
/// for a consumer: an event costs a lock and one `yield` per open stream, none when there is none.
///
/// # Thread safety
/// Everything sits in one `State` behind one `Mutex`. Events are yielded under it, so every
/// stream sees the run's events in the order ``PipelineRun/publish(_:)`` was called; streams
/// are finished outside it, because finishing runs their `onTermination`, which takes it again.
final class EventHub: Sendable {
    /// The open streams, each under the number it was given.
    struct Streams {
        var next = 0
        var events: [Int: (AsyncStream<PipelineEvent>.Continuation, DropCounter)] = [:]
        var batches: [Int: AsyncStream<Batch>.Continuation] = [:]
    }

    private enum State {
        /// The run is not under way yet: `waiters` want to hear when it is (or failed to start).
        case notStarted(Streams, waiters: [@Sendable () -> Void])
        /// Under way, or ending: its final state went by and record failures may still follow.
        case started(Streams)
        /// The run has ended and every stream is finished; a new one finishes at once.
        case ended
    }

    private let state = Mutex(State.notStarted(Streams(), waiters: []))

    /// Registers an event stream, which counts into `drops` what its bound discards; returns
    /// `false` when the run has already ended.
    func add(events continuation: AsyncStream<PipelineEvent>.Continuation, drops: DropCounter) -> Bool {
        guard let id = register({ $0.events[$1] = (continuation, drops) }) else { return false }
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return true
    }

    /// Registers a batch stream, to be finished when the run ends; returns `false` when it has.
    ///
    /// A stream has one `onTermination`: what else its end must undo (the stage's tap feeding
    /// it) comes as `alsoOnTermination`, run after the hub has forgotten the stream.
    func add(
        batches continuation: AsyncStream<Batch>.Continuation,
        alsoOnTermination: @escaping @Sendable () -> Void
    ) -> Bool {
        guard let id = register({ $0.batches[$1] = continuation }) else { return false }
        continuation.onTermination = { [weak self] _ in
            self?.remove(id)
            alsoOnTermination()
        }
        return true
    }

    /// How many batch streams are open: a stream whose consumer went away is no longer counted.
    var openBatchStreams: Int {
        state.withLock { state in
            switch state {
            case .notStarted(let streams, _), .started(let streams): streams.batches.count
            case .ended: 0
            }
        }
    }

    private func register(_ insert: (inout Streams, Int) -> Void) -> Int? {
        state.withLock { state -> Int? in
            switch state {
            case .notStarted(var streams, let waiters):
                let id = streams.next
                streams.next += 1
                insert(&streams, id)
                state = .notStarted(streams, waiters: waiters)
                return id
            case .started(var streams):
                let id = streams.next
                streams.next += 1
                insert(&streams, id)
                state = .started(streams)
                return id
            case .ended:
                return nil
            }
        }
    }

    private func remove(_ id: Int) {
        state.withLock { state in
            switch state {
            case .notStarted(var streams, let waiters):
                streams.events[id] = nil
                streams.batches[id] = nil
                state = .notStarted(streams, waiters: waiters)
            case .started(var streams):
                streams.events[id] = nil
                streams.batches[id] = nil
                state = .started(streams)
            case .ended:
                break
            }
        }
    }

    /// Calls `body` once the run is under way (every stage counted in, so ``PipelineRun/onFinish(_:)``
    /// waits for them) or has failed to start; at once when it already is.
    func whenUnderWay(_ body: @escaping @Sendable () -> Void) {
        let now = state.withLock { state -> Bool in
            guard case .notStarted(let streams, var waiters) = state else { return true }
            waiters.append(body)
            state = .notStarted(streams, waiters: waiters)
            return false
        }
        if now { body() }
    }

    /// Yields `event` to every open stream; the run's own state changes move the hub on.
    ///
    /// - Parameter run: the run publishing it, whose ``PipelineRun/onFinish(_:)`` ends the streams
    ///   after the final state and any record failure that follows it.
    func feed(_ event: PipelineEvent, of run: PipelineRun) {
        var waiters: [@Sendable () -> Void] = []
        state.withLock { state in
            switch state {
            case .notStarted(let streams, let w):
                Self.yield(event, to: streams)
                if case .state(nil, _, let to) = event, to == .running || to.isFinal {
                    waiters = w
                    state = .started(streams)
                }
            case .started(let streams):
                Self.yield(event, to: streams)
            case .ended:
                break
            }
        }
        for w in waiters { w() }
        guard case .state(nil, let from, let to) = event, to.isFinal else { return }
        if from == .starting {
            // A start that failed counted no stage in: nothing is left to end, and `onFinish`
            // would fire at once, racing the record failure `start()` may publish next.
            finish()
        } else {
            // Called while the last stage is still counted in, so it runs once that stage has
            // written the run's record and published what went wrong with it.
            run.onFinish { [weak self] _ in self?.finish() }
        }
    }

    private static func yield(_ event: PipelineEvent, to streams: Streams) {
        for (c, drops) in streams.events.values {
            if case .dropped = c.yield(event) { drops.add(1) }
        }
    }

    /// Finishes every stream: the run has ended.
    func finish() {
        let (streams, waiters) = state.withLock { state -> (Streams?, [@Sendable () -> Void]) in
            switch state {
            case .notStarted(let streams, let waiters):
                state = .ended
                return (streams, waiters)
            case .started(let streams):
                state = .ended
                return (streams, [])
            case .ended:
                return (nil, [])
            }
        }
        for w in waiters { w() }
        guard let streams else { return }
        for (c, _) in streams.events.values { c.finish() }
        for c in streams.batches.values { c.finish() }
    }
}
