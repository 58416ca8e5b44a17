import Foundation

extension PipelineRun {
    /// Runs the first pass of every ``TwoPassTransform`` that needs one, in pipeline order, and
    /// hands each result to the run's instance. Only on the virtual clock: on the others the
    /// plugin refuses to be built without what a first pass would find.
    /// - Throws: ``PipelineStartError`` naming the transform when a first pass cannot start or fails.
    func runFirstPasses() throws(PipelineStartError) {
        guard clock.mode == .virtual else { return }
        for stage in stages where stage.kind == .transform {
            guard let transform = stage.plugin as? any TwoPassTransform, transform.needsFirstPass else { continue }
            let component = "\(PluginKind.transform.section).\(stage.name)"
            do {
                let result = try firstPass(over: spec.upstream(of: stage.name), for: stage.name)
                try transform.takeFirstPass(result)
            } catch let error as PipelineStartError {
                throw PipelineStartError(
                    component: component, message: "first pass: \(error)", underlying: error.underlying ?? error)
            } catch {
                throw PipelineStartError(component: component, message: "first pass: \(error)", underlying: error)
            }
        }
    }

    /// Runs `upstream` to its end with `name`'s instance in first-pass mode; returns its result.
    private func firstPass(over upstream: PipelineSpec, for name: String) throws -> Fields {
        let pass = try PipelineRun(
            spec: upstream,
            options: RunOptions(
                maxSamples: options.maxSamples, duration: options.duration, batchSize: options.batchSize,
                flushInterval: 0))
        guard let surveyor = pass.plugin(named: name) as? any TwoPassTransform else {
            throw DAQError(.startFailed, "the first pass has no instance of \(name)")
        }
        surveyor.beginFirstPass()
        try pass.start()
        let result = pass.wait()
        if let error = result.error { throw error }
        guard result.state == .finished else {
            throw DAQError(.startFailed, "the first pass ended \(result.state.rawValue), not finished")
        }
        return try surveyor.firstPassResult()
    }
}

extension PipelineSpec {
    /// The pipeline cut down to component `name` and everything it reads from, directly or
    /// through other components: what a first pass over `name`'s input runs.
    func upstream(of name: String) -> PipelineSpec {
        var needed: Set<String> = [name]
        var queue = [name]
        while let next = queue.popLast() {
            for input in component(next)?.inputs ?? [] {
                let producer = ComponentSpec.producer(of: input).name
                if needed.insert(producer).inserted { queue.append(producer) }
            }
        }
        var cut = self
        cut.components = components.filter { needed.contains($0.name) }
        return cut
    }
}
