extension PipelineRun {
    /// Calls `handler` with every batch component `name` produces: what a source or transform
    /// emits, or what a sink writes (its input with step markers woven in).
    ///
    /// Observe before ``start()`` to see everything. The handler runs on the component's own
    /// queue, inline with the data flow, so it must be quick and must not block; batches from
    /// different components may arrive concurrently.
    ///
    /// - Parameters:
    ///   - name: the component's name in the pipeline.
    ///   - handler: receives each batch, stamped with its stream.
    /// - Returns: `false` when the pipeline has no component of that name.
    @discardableResult
    public func observe(component name: String, _ handler: @escaping @Sendable (Batch) -> Void) -> Bool {
        guard let stage = stage(named: name) else { return false }
        stage.addTap(handler)
        return true
    }
}
