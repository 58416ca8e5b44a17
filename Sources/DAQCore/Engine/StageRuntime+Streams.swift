/// How a stage keeps its output's descriptor: declared before the run, derived again when an
/// input changes, widened by a field that first appears, and stamped on every batch it emits.
extension StageRuntime {
    /// The descriptor `batch` goes out with: the current one, or one widened by the fields the
    /// batch brings that no descriptor declared yet. Runs on `queue`.
    func declaredOutput(for batch: Batch) -> DeclaredStream {
        guard let current = output else {
            let first = DeclaredStream(StreamDescriptor()).widened(by: batch)
            changeOutput(to: first)
            return first
        }
        if current.covers(batch) { return current }
        let wider = current.widened(by: batch)
        changeOutput(to: wider)
        return wider
    }

    /// Takes what `graph` says the stage reads and emits; before the stage starts.
    func adopt(_ graph: StreamGraph) {
        if let d = graph.outputs[name] { changeOutput(to: DeclaredStream(d)) }
        inputStreams = (graph.inputs[name] ?? [:]).mapValues(DeclaredStream.init)
    }

    /// Makes `declared` what the stage emits from now on, and the run's record of it. The fields
    /// it had keep their places (``StreamDescriptor/keepingOrder(of:)``).
    func changeOutput(to declared: DeclaredStream) {
        var next = declared
        if let current = output {
            let ordered = declared.descriptor.keepingOrder(of: current.descriptor)
            if ordered == current.descriptor { return }
            if ordered.fields != declared.descriptor.fields { next = DeclaredStream(ordered) }
        }
        output = next
        host?.recorder.recordStream(component: name, next.descriptor)
    }

    /// Takes the descriptor `batch` came with; returns whether it differs from the one its
    /// stream had. One pointer compare per batch. Runs on `queue`.
    func noteInput(_ batch: Batch) -> Bool {
        guard let declared = batch.declared, inputStreams[batch.stream] !== declared else { return false }
        inputStreams[batch.stream] = declared
        return true
    }

    /// The merge of what the stage reads now, in the order of its inputs.
    var mergedInput: StreamDescriptor {
        var ordered: [StreamDescriptor] = []
        var seen: Set<String> = []
        for stream in inputStreamOrder where seen.insert(stream).inserted {
            if let d = inputStreams[stream] { ordered.append(d.descriptor) }
        }
        for (stream, d) in inputStreams.sorted(by: { $0.key < $1.key }) where !seen.contains(stream) {
            ordered.append(d.descriptor)
        }
        return StreamDescriptor.merging(ordered) ?? StreamDescriptor()
    }
}
