/// The run's events and a component's batches as `AsyncSequence`s, beside the observers.
extension PipelineRun {
    /// The run's events from now on, in the order observers receive them, buffering up to 1,024
    /// the consumer has not taken yet (see ``PipelineEventStream`` for what a slow consumer loses).
    ///
    /// Each use is a stream of its own; ask before ``start()`` (or ``run()``) to see every event:
    ///
    /// ```swift
    /// let events = run.events
    /// async let outcome: Void = run.run()
    /// for await event in events { print(event) }  // ends after the final state
    /// ```
    public var events: PipelineEventStream { events(buffering: 1024) }

    /// The run's events from now on, keeping at most `limit` the consumer has not taken yet.
    ///
    /// - Parameter limit: how many events may wait; when more come, the oldest are discarded
    ///   and counted in ``PipelineEventStream/dropped``. At least 1.
    public func events(buffering limit: Int) -> PipelineEventStream {
        precondition(limit >= 1, "an event stream buffers at least one event")
        let drops = DropCounter()
        let (stream, continuation) = AsyncStream.makeStream(
            of: PipelineEvent.self, bufferingPolicy: .bufferingNewest(limit))
        if !eventHub.add(events: continuation, drops: drops) { continuation.finish() }
        return PipelineEventStream(stream: stream, drops: drops)
    }

    /// The batches component `name` produces from now on: what a source or transform emits, or
    /// what a sink writes (its input with step markers woven in), as ``observe(component:_:)``
    /// sees them.
    ///
    /// Bounded: the component never waits for the consumer. When `limit` batches wait, a new
    /// one is discarded and counted (``BatchStream/droppedBatches``, ``BatchStream/droppedSamples``).
    /// A component a reload restarts keeps feeding the stream. Ask before ``start()`` to see
    /// every batch.
    ///
    /// - Parameters:
    ///   - name: the component's name in the pipeline.
    ///   - limit: how many batches may wait for the consumer; at least 1.
    /// - Throws: a ``DAQError`` with code ``DAQError/Code/invalidConfiguration`` when the
    ///   pipeline has no component `name`, naming the closest one and listing them all.
    public func samples(of name: String, buffering limit: Int = 64) throws -> BatchStream {
        precondition(limit >= 1, "a batch stream buffers at least one batch")
        guard let stage = stage(named: name) else {
            let names = componentNames
            let guess = DidYouMean.best(name, in: names).map { " (did you mean '\($0)'?)" } ?? ""
            throw DAQError(
                .invalidConfiguration,
                "pipeline '\(spec.name)' has no component '\(name)'\(guess); it has \(names.joined(separator: ", "))")
        }
        let drops = DropCounter()
        let (stream, continuation) = AsyncStream.makeStream(of: Batch.self, bufferingPolicy: .bufferingOldest(limit))
        // Runs on the component's queue, inline with its data flow: a `yield` never waits, and a
        // finished stream (its consumer gone, or the run ended) takes nothing more.
        let tap = stage.addTap { batch in
            if case .dropped(let lost) = continuation.yield(batch) { drops.add(lost.count) }
        }
        // Its consumer gone (the stream dropped, or the task reading it cancelled), the hub
        // forgets the stream and the tap goes: from the stage now under that name, should a
        // reload have restarted it.
        let registered = eventHub.add(batches: continuation) { [weak self] in
            self?.stage(named: name)?.removeTap(tap)
        }
        guard registered else {
            stage.removeTap(tap)
            continuation.finish()
            return BatchStream(stream: stream, drops: drops)
        }
        return BatchStream(stream: stream, drops: drops)
    }
}
