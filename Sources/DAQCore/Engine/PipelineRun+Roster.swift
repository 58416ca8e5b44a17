import Dispatch
import Synchronization

/// How a reload changes which stages the run holds and waits for.
extension PipelineRun {
    /// Counts in the stages a reload adds: the run now waits for them too. Returns `false`, and
    /// counts nothing, when the run has already ended.
    func admitLate(_ added: [StageRuntime]) -> Bool {
        let admitted = state.withLock { $0.machine.countIn(added.count) }
        guard admitted else { return false }
        for stage in added {
            count(in: stage)
            done.enter()
        }
        return true
    }

    /// Marks `stage` as leaving the run; `group` is left once it has finished. Runs on the
    /// stage's queue, where it finishes, so one that has already ended is simply moved out.
    func retire(_ stage: StageRuntime, into group: DispatchGroup) {
        stage.queue.sync {
            stage.retire()
            let final = stage.lifecycleState.isFinal ? stage.statistics : nil
            roster.withLock { r in
                r.retired.append(Roster.Retired(stage: ObjectIdentifier(stage), final: nil))
                if let final { r.retire(stage, final: final) }
            }
            guard final == nil else { return }
            group.enter()
            state.withLock { $0.machine.retire(ObjectIdentifier(stage), into: group) }
        }
    }

    /// Changes the stage list under its lock (a reload adding and placing stages).
    func editRoster(_ body: (inout [StageRuntime]) -> Void) {
        roster.withLock { body(&$0.stages) }
    }
}

/// The stages of a run, and the final counters of those a reload retired.
struct Roster {
    /// A stage a reload retires, in the order the reloads named them; `final` once it ended.
    struct Retired {
        let stage: ObjectIdentifier
        var final: StageStatistics?
    }
    var stages: [StageRuntime] = []
    var retired: [Retired] = []

    /// Moves an ended stage out of the list, keeping its counters.
    mutating func retire(_ stage: StageRuntime, final: StageStatistics) {
        stages.removeAll { $0 === stage }
        if let i = retired.firstIndex(where: { $0.stage == ObjectIdentifier(stage) && $0.final == nil }) {
            retired[i].final = final
        }
    }
}
