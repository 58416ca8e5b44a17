import Dispatch

extension PipelineRun {
    /// Applies `new` to the running pipeline without stopping it.
    ///
    /// Unchanged components keep their state and buffers. A transform whose settings alone
    /// changed (same type, buffer and `on_error`, no work still in flight after `process`) takes
    /// them between two batches on its own queue, its old instance's `finish` output going
    /// downstream first. Every other changed component drains, stops and starts: its producers
    /// switch to the new instance's buffer (which holds what arrives meanwhile), the old instance
    /// ends on what it already had, and only then does the new one start, so the two never hold
    /// a file or a device at once. Added components start once wired; removed ones drain and
    /// stop. Inputs are rewired before any old edge is closed, so no consumer sees its inputs end.
    /// A restarted source begins reading anew (a recording from its start).
    ///
    /// What only a new run can change — the clock, the steps, the name, the metrics section —
    /// is refused and the run goes on unchanged; so is a file whose new plugins cannot be built.
    /// - Throws: ``ReloadRefusal`` or ``PipelineStartError``; the run is then as it was.
    public func reload(_ new: PipelineSpec) throws -> ReloadReport {
        try reloading.withLock { current in
            let old = current ?? spec
            let now = lifecycleState
            guard now == .running || now == .paused else {
                throw ReloadRefusal(description: "the run is \(now.rawValue); only a running or paused run reloads")
            }
            let plan = try ReloadPlan(from: old, to: new)
            var change = try prepare(plan, from: old, to: new)
            guard admitLate(change.fresh) else { throw ReloadRefusal(description: "the run has ended") }
            current = new
            apply(&change, new)
            return change.report
        }
    }

    /// The stages a reload builds and retires, and what it reports.
    struct ReloadChange {
        var report = ReloadReport()
        /// The stage of every component of the new file.
        var live: [String: StageRuntime] = [:]
        var fresh: [StageRuntime] = []
        var retiring: [StageRuntime] = []
        var swaps: [(TransformStage, any Transform)] = []
    }

    /// Builds every new plugin before anything changes: one that cannot be built refuses the reload.
    private func prepare(_ plan: ReloadPlan, from old: PipelineSpec, to new: PipelineSpec) throws -> ReloadChange {
        var change = ReloadChange()
        for name in componentNames { change.live[name] = stage(named: name) }
        let before = Dictionary(old.components.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        for c in plan.changed {
            guard let running = change.live[c.name], let was = before[c.name] else { continue }
            if ReloadPlan.replacesInPlace(c, was: was, stage: running), let stage = running as? TransformStage {
                guard case .transform(let t) = try makePlugin(c, pipelineName: new.name) else { continue }
                change.swaps.append((stage, t))
                change.report.replaced.append(c.name)
            } else {
                let stage = try buildStage(c, pipelineName: new.name, restart: true)
                stage.inheritTaps(from: running)
                change.fresh.append(stage)
                change.retiring.append(running)
                change.live[c.name] = stage
                change.report.restarted.append(c.name)
            }
        }
        for c in plan.added {
            change.live[c.name] = try buildStage(c, pipelineName: new.name)
            change.fresh.append(change.live[c.name]!)
            change.report.added.append(c.name)
        }
        for c in plan.removed {
            if let stage = change.live.removeValue(forKey: c.name) { change.retiring.append(stage) }
            change.report.removed.append(c.name)
        }
        // The new stages know their streams before they start, as a new run's would; the
        // running ones take each change from the batches that bring it.
        let graph = try StreamGraph.describe(new)
        for stage in change.fresh { stage.adopt(graph) }
        let restarted = Set(change.report.restarted)
        change.report.rewired = new.components.map(\.name).filter {
            plan.rewired.contains($0) && !restarted.contains($0)
        }
        return change
    }

    private func apply(_ change: inout ReloadChange, _ new: PipelineSpec) {
        place(change, new)
        rewire(change, new)
        for (stage, transform) in change.swaps {
            do {
                try stage.queue.sync { try stage.replaceTransform(with: transform) }
            } catch {
                change.report.failed.append("\(stage.name): \(error)")
            }
        }
        // A stop that came before the new sources were listed did not reach them.
        if lifecycleState == .stopping || lifecycleState.isFinal {
            for s in change.fresh where s.kind == .source { s.requestStop() }
        }
        let retired = DispatchGroup()
        for stage in change.retiring {
            retire(stage, into: retired)
            if stage.kind == .source { stage.requestStop() } else { stage.wake() }
        }
        retired.wait()
        var abandoned: Set<ObjectIdentifier> = []
        for kind in [PluginKind.sink, .transform, .source] {
            for s in change.fresh where s.kind == kind {
                let begun: Result<Void, any Error> = s.queue.sync { Result { try s.startPlugin() } }
                let started = begun.flatMap { s.tasks.awaitStart() }
                if case .failure(let error) = started {
                    if case .success = begun { s.queue.sync { s.abortStarted() } }
                    change.report.failed.append("\(s.name): \(error)")
                    s.queue.sync {
                        s.abandonStart(
                            s.daqError(error, code: .reloadFailed).prefixed("could not start after a reload: "))
                    }
                    abandoned.insert(ObjectIdentifier(s))
                }
            }
        }
        for s in change.fresh where !abandoned.contains(ObjectIdentifier(s)) {
            if let source = s as? SourceStage { source.begin() } else { s.wake() }
        }
    }

    /// Lists the new stages in pipeline order, each restarted one right after its old instance.
    private func place(_ change: ReloadChange, _ new: PipelineSpec) {
        let leaving = Dictionary(change.retiring.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        editRoster { stages in
            var ordered: [StageRuntime] = []
            for c in new.components {
                if let old = leaving[c.name] { ordered.append(old) }
                if let s = change.live[c.name] { ordered.append(s) }
            }
            let listed = Set(ordered.map(ObjectIdentifier.init))
            ordered += stages.filter { !listed.contains(ObjectIdentifier($0)) }
            stages = ordered
        }
    }

    /// Makes every producer's outputs those of the new file. Each producer switches in one
    /// step on its own queue, so a batch goes to the old edges or the new, never both; every new
    /// edge is counted in before any old one closes, so no consumer sees its last input end.
    private func rewire(_ change: ReloadChange, _ new: PipelineSpec) {
        var wanted: [ObjectIdentifier: (primary: [Inbox], dead: [Inbox])] = [:]
        for c in new.components {
            guard let inbox = change.live[c.name]?.inbox else { continue }
            for input in c.inputs {
                let (name, dead) = ComponentSpec.producer(of: input)
                guard let producer = change.live[name] else { continue }
                let id = ObjectIdentifier(producer)
                if dead {
                    wanted[id, default: ([], [])].dead.append(inbox)
                } else {
                    wanted[id, default: ([], [])].primary.append(inbox)
                }
            }
        }
        let producers = change.live.values.sorted { $0.name < $1.name }
        var adding: [ObjectIdentifier: (primary: [Inbox], dead: [Inbox])] = [:]
        for p in producers {
            let (primary, dead) = wanted[ObjectIdentifier(p)] ?? ([], [])
            let (current, currentDead) = p.queue.sync { (p.outputs, p.deadOutputs) }
            let new = (
                primary.filter { i in !current.contains { $0 === i } },
                dead.filter { i in !currentDead.contains { $0 === i } }
            )
            for inbox in new.0 + new.1 { inbox.addInput() }
            adding[ObjectIdentifier(p)] = new
        }
        for p in producers {
            let (primary, dead) = wanted[ObjectIdentifier(p)] ?? ([], [])
            let (addPrimary, addDead) = adding[ObjectIdentifier(p)] ?? ([], [])
            p.queue.sync {
                // It ended meanwhile: it closed what it had, and the new edges never opened.
                guard !p.lifecycleState.isFinal else {
                    for inbox in addPrimary + addDead { inbox.closeInput() }
                    return
                }
                let gone =
                    p.outputs.filter { o in !primary.contains { $0 === o } }
                    + p.deadOutputs.filter { o in !dead.contains { $0 === o } }
                p.outputs.removeAll { o in !primary.contains { $0 === o } }
                p.deadOutputs.removeAll { o in !dead.contains { $0 === o } }
                p.outputs += addPrimary
                p.deadOutputs += addDead
                for inbox in gone { inbox.closeInput() }
            }
        }
    }
}
