import Synchronization

/// The run's steps: the pipeline's `steps` plus those a stage adds while the run goes (a
/// scanned step card). Every sink weaves markers from it, so a step a stage sets is marked in
/// every logger.
///
/// # Thread safety
/// Readers poll ``version`` (an atomic load) on every batch and take the lock only when it has
/// changed, so a run whose steps never change pays no lock per batch.
public final class StepSchedule: Sendable {
    private let state: Mutex<[StepSpec]>
    private let changes = Atomic<Int>(0)

    /// A schedule holding `steps`, ordered by time.
    public init(_ steps: [StepSpec]) {
        state = Mutex(steps.sorted { $0.at < $1.at })
    }

    /// Counts additions; unchanged means the steps a reader holds are current.
    public var version: Int { changes.load(ordering: .acquiring) }

    /// Every step, ordered by time, with the version it belongs to.
    public func snapshot() -> (steps: [StepSpec], version: Int) {
        state.withLock { ($0, changes.load(ordering: .acquiring)) }
    }

    /// Adds a step at run-clock `at`; steps at the same time keep the order they were added in.
    public func add(_ step: StepSpec) {
        state.withLock { steps in
            let index = steps.firstIndex { $0.at > step.at } ?? steps.count
            steps.insert(step, at: index)
            changes.add(1, ordering: .releasing)
        }
    }

    /// Sets each data and event sample's step to the one `steps` (ordered by time) has in force at
    /// its time; a sample before every step keeps its own (a replayed log's recorded step).
    public static func stamp(_ batch: inout Batch, steps: [StepSpec]) {
        guard let first = steps.first else { return }
        for row in 0..<batch.count where batch.kinds[row] != .marker && batch.uptimes[row] >= first.at {
            let path = path(at: batch.uptimes[row], in: steps)
            if batch.stepPaths[row] != path { batch.setStepPath(path, at: row) }
        }
    }

    /// The path current at `uptime` among `steps` (ordered by time), or `""`.
    public static func path(at uptime: Double, in steps: [StepSpec]) -> String {
        var path = ""
        for step in steps {
            if step.at <= uptime { path = step.path } else { break }
        }
        return path
    }
}
