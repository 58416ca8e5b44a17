import Synchronization

/// Every timer and watch one stage has running, so the engine can cancel them when it ends.
///
/// Open until ``cancelAll()``; a task registered after that is cancelled at once, so a plugin's
/// callback that arms a timer while its stage ends cannot leave one behind.
///
/// # Thread safety
/// One `Mutex` around the state; the tasks are cancelled outside it.
final class StageTasks: Sendable {
    private enum State {
        /// Running tasks by identity, and the generation of the latest ``StageContext/wake(atUptime:)``.
        case open(tasks: [ObjectIdentifier: StageTask], wakeGeneration: Int)
        case ended
    }

    private let state = Mutex(State.open(tasks: [:], wakeGeneration: 0))
    /// A start the plugin completes later, until the engine has waited for it.
    private let pendingStart = Mutex<StartCompletion?>(nil)
    /// A stop or finish the plugin completes later, until the stage takes it to wait for it.
    private let pendingEnd = Mutex<EndCompletion?>(nil)

    /// Keeps the completion of the plugin's start for ``awaitStart()``.
    func deferStart(_ completion: StartCompletion) {
        pendingStart.withLock { $0 = completion }
    }

    /// Waits, on the calling thread, for a start the plugin completes later; success at once
    /// when it completed in `start`.
    func awaitStart() -> Result<Void, any Error> {
        guard
            let completion = pendingStart.withLock({ p -> StartCompletion? in
                defer { p = nil }
                return p
            })
        else { return .success(()) }
        return completion.wait()
    }

    /// Keeps the completion of the plugin's stop or finish for ``takeDeferredEnd()``.
    func deferEnd(_ completion: EndCompletion) {
        pendingEnd.withLock { $0 = completion }
    }

    /// The end the plugin completes later, once: `nil` when it completed in `stop` or `finish`.
    func takeDeferredEnd() -> EndCompletion? {
        pendingEnd.withLock { p -> EndCompletion? in
            defer { p = nil }
            return p
        }
    }

    /// Keeps `task` until it is removed or the stage ends; returns `false` (and cancels it)
    /// when the stage has ended already.
    @discardableResult
    func add(_ task: StageTask) -> Bool {
        let added = state.withLock { s -> Bool in
            guard case .open(var tasks, let generation) = s else { return false }
            tasks[ObjectIdentifier(task)] = task
            s = .open(tasks: tasks, wakeGeneration: generation)
            return true
        }
        if !added { task.cancel() }
        return added
    }

    /// Forgets a task that is over (a timer that fired), so a long run does not keep them all.
    func remove(_ task: StageTask) {
        state.withLock { s in
            guard case .open(var tasks, let generation) = s else { return }
            tasks[ObjectIdentifier(task)] = nil
            s = .open(tasks: tasks, wakeGeneration: generation)
        }
    }

    /// Starts a new wake request, which makes every earlier one stale; `nil` once ended.
    func nextWakeGeneration() -> Int? {
        state.withLock { s -> Int? in
            guard case .open(let tasks, let generation) = s else { return nil }
            s = .open(tasks: tasks, wakeGeneration: generation + 1)
            return generation + 1
        }
    }

    /// Whether `generation` is still the latest wake request of a stage that runs.
    func isCurrentWake(_ generation: Int) -> Bool {
        state.withLock { s in
            guard case .open(_, let current) = s else { return false }
            return current == generation
        }
    }

    /// How many tasks are running.
    var count: Int {
        state.withLock { s in
            guard case .open(let tasks, _) = s else { return 0 }
            return tasks.count
        }
    }

    /// Cancels every task and refuses new ones: the stage has ended.
    func cancelAll() {
        let tasks = state.withLock { s -> [StageTask] in
            guard case .open(let tasks, _) = s else { return [] }
            s = .ended
            return Array(tasks.values)
        }
        for task in tasks { task.cancel() }
    }
}
