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
            } catch let error as DAQError where error.code == .cancelled {
                throw PipelineStartError(component: component, message: error.message, underlying: error)
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
        // Registered before the checks, as `cancel()` marks the run before it asks for the pass:
        // a stop that comes before the pass starts is seen by the first check, one that finds
        // the pass not yet started (and so ignored) by the second, any later one by the pass.
        firstPassUnderWay.withLock { $0 = pass }
        defer { firstPassUnderWay.withLock { $0 = nil } }
        let cancelled = DAQError(.cancelled, "stopped during the first pass over \(name)'s input, before the run began")
        if endsWhileStarting { throw cancelled }
        let started = Date()
        publish(.notice(component: name, message: "first pass: reading its input once before the run"))
        try pass.start()
        if endsWhileStarting { pass.cancel() }
        let result = pass.wait()
        if result.state == .cancelled || endsWhileStarting { throw cancelled }
        if let error = result.error { throw error }
        guard result.state == .finished else {
            throw DAQError(.startFailed, "the first pass ended \(result.state.rawValue), not finished")
        }
        let samples = result.stages.filter { $0.kind == .source }.reduce(0) { $0 + $1.samplesOut }
        let seconds = (Date().timeIntervalSince(started) * 10).rounded() / 10
        let message = "first pass: \(samples) samples read in \(seconds) s"
        recorder.note(component: name, severity: .notice, message)
        publish(.notice(component: name, message: message))
        return try surveyor.firstPassResult()
    }

    /// Whether a stop or cancel came while the run starts, which ends a first pass under way.
    private var endsWhileStarting: Bool { state.withLock { $0.machine.endsWhileStarting } }
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
