import Synchronization

/// Why a new configuration cannot be applied to a running pipeline.
public struct ReloadRefusal: Error, CustomStringConvertible {
    public var description: String
}

extension PipelineRun {
    /// Applies `new` to the running pipeline without stopping it, and returns the components
    /// it replaced.
    ///
    /// Components whose configuration is unchanged keep their state and their buffers. A
    /// changed transform is replaced between two batches on its own queue: the old instance's
    /// `finish` output goes downstream first and its input buffer stays, so a reload loses no
    /// sample. Everything else — another graph, a changed source or sink, a transform that
    /// finishes work after `process` returns, other clock or steps — needs a restart, and the
    /// run goes on unchanged with a refusal that says why.
    /// - Throws: ``ReloadRefusal``, or the error of a new transform that could not start.
    public func reload(_ new: PipelineSpec) throws -> [String] {
        try reloading.withLock { current in
            let changed = try Self.changedTransforms(from: current ?? spec, to: new)
            var built: [(TransformStage, any Transform)] = []
            for c in changed {
                guard let stage = stage(named: c.name) as? TransformStage else { continue }
                if stage.transform is any DeferredWork {
                    throw ReloadRefusal(description: "transforms.\(c.name) (\(c.plugin.typeName)) finishes work after process returns; restart the run to change it")
                }
                let context = PluginContext(componentName: c.name, pipelineName: new.name, baseDirectory: "", clock: new.clock)
                guard case .transform(let t) = try c.plugin.makeStage(c.configuration, context: context) else { continue }
                built.append((stage, t))
            }
            for (stage, t) in built {
                try stage.queue.sync { try stage.replaceTransform(with: t) }
            }
            current = new
            return built.map(\.0.name)
        }
    }

    /// The transforms whose configuration differs, or a refusal naming what else changed.
    static func changedTransforms(from old: PipelineSpec, to new: PipelineSpec) throws -> [ComponentSpec] {
        func refuse(_ what: String) -> ReloadRefusal {
            ReloadRefusal(description: "\(what); only transform settings change in a running pipeline, restart the run for this")
        }
        if old.clock != new.clock || old.speed != new.speed { throw refuse("the clock changed") }
        if old.steps != new.steps { throw refuse("the steps changed") }
        if old.metrics != new.metrics { throw refuse("the metrics section changed") }
        let before = Dictionary(old.components.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        let after = Set(new.components.map(\.name))
        if let added = new.components.first(where: { before[$0.name] == nil }) {
            throw refuse("\(added.kind.section).\(added.name) is new")
        }
        if let removed = old.components.first(where: { !after.contains($0.name) }) {
            throw refuse("\(removed.kind.section).\(removed.name) was removed")
        }
        var changed: [ComponentSpec] = []
        for c in new.components {
            let o = before[c.name]!
            guard o.fingerprint != c.fingerprint else { continue }
            let path = "\(c.kind.section).\(c.name)"
            if c.kind != .transform { throw refuse("\(path) changed") }
            if o.plugin.typeName != c.plugin.typeName { throw refuse("\(path) is now a \(c.plugin.typeName)") }
            if o.inputs != c.inputs { throw refuse("\(path).inputs changed") }
            if o.buffer != c.buffer { throw refuse("\(path).buffer changed") }
            if o.onError != c.onError { throw refuse("\(path).on_error changed") }
            changed.append(c)
        }
        return changed
    }
}
