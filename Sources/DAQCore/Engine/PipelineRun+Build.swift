extension PipelineRun {
    /// Builds the stage of component `c`, its plugin constructed, its input buffer made; nothing
    /// of the run changes until the stage is counted in, so a reload whose second plugin cannot
    /// be built leaves the run as it was.
    /// - Throws: ``PipelineStartError`` when the plugin cannot be built.
    func buildStage(_ c: ComponentSpec, pipelineName: String, restart: Bool = false) throws -> StageRuntime {
        let stage: StageRuntime
        let pluginContext = PipelineRun.pluginContext(c, pipelineName: pipelineName, clock: spec.clock)
        switch try makePlugin(c, pipelineName: pipelineName) {
        case .source(let s):
            let source = SourceStage(
                name: c.name, type: c.plugin.typeName, source: s, batchSize: options.batchSize, pool: pool)
            source.pauseHandling = c.pause
            stage = source
        case .transform(let t):
            stage = TransformStage(name: c.name, type: c.plugin.typeName, transform: t, pool: pool)
        case .sink(let s):
            stage = SinkStage(
                name: c.name, type: c.plugin.typeName, sink: s, flushInterval: options.flushInterval, pool: pool)
        }
        let metrics = StageMetrics(pipeline: pipelineName, component: c.name, kind: c.kind, type: c.plugin.typeName)
        stage.metrics = metrics
        if c.kind != .source {
            stage.inbox = Inbox(owner: c.name, capacity: c.buffer.size, policy: c.buffer.whenFull, metrics: metrics) {
                [weak stage] in
                stage?.wake()
            }
            stage.stats.withLock { $0.bufferCapacity = c.buffer.size }
            metrics.bufferCapacity.record(c.buffer.size)
        }
        stage.inputNames = c.inputs.map { ComponentSpec.producer(of: $0).name }
        stage.inputStreamOrder = c.inputs
        stage.pluginContext = pluginContext
        stage.onError = c.onError
        stage.changesSteps = c.plugin.changesSteps
        stage.context = StageContext(
            stage: stage, pipelineName: pipelineName, clock: clock, schedule: schedule,
            runDirectory: options.runDirectory, isRestart: restart)
        stage.host = self
        stage.links = links
        return stage
    }
}

extension PipelineRun {
    /// Constructs component `c`'s plugin.
    /// - Throws: ``PipelineStartError`` naming the component.
    func makePlugin(_ c: ComponentSpec, pipelineName: String) throws -> BuiltStage {
        let context = Self.pluginContext(c, pipelineName: pipelineName, clock: spec.clock)
        do {
            return try c.plugin.makeStage(c.configuration, context: context)
        } catch {
            throw PipelineStartError(component: "\(c.kind.section).\(c.name)", message: "\(error)", underlying: error)
        }
    }
}

extension PipelineRun {
    /// What component `c`'s plugin is built and described with.
    static func pluginContext(_ c: ComponentSpec, pipelineName: String, clock: ClockMode) -> PluginContext {
        PluginContext(componentName: c.name, pipelineName: pipelineName, baseDirectory: "", clock: clock)
    }

    /// Every component's descriptor, from the plugins of `stages` (by component name); stages
    /// not yet running take theirs. Sources read their files' headers here.
    /// - Throws: ``PipelineStartError`` naming a component that cannot say what it emits.
    func describeStreams(_ components: [ComponentSpec], stages: [String: StageRuntime], adopt fresh: [StageRuntime])
        throws
    {
        var built: [String: BuiltStage] = [:]
        var contexts: [String: PluginContext] = [:]
        for (name, stage) in stages {
            built[name] = stage.builtStage
            contexts[name] = stage.pluginContext
        }
        let graph = try StreamGraph.describe(components, built: built, contexts: contexts)
        for stage in fresh { stage.adopt(graph) }
    }
}

extension ComponentSpec {
    /// The component an entry of `inputs` names, and whether it names its dead letters.
    static func producer(of input: String) -> (name: String, dead: Bool) {
        input.hasSuffix(deadLetterSuffix) ? (String(input.dropLast(deadLetterSuffix.count)), true) : (input, false)
    }
}
