import Synchronization

/// The run's stages that may still change the step, and the sinks waiting for them to end: a
/// step card scanned upstream of another branch still gets its marker there. Also tells each
/// step change once, whichever sink reaches it first. Its own lock.
final class StepGate: Sendable {
    private struct State {
        var changers = 0
        var waiters: [@Sendable () -> Void] = []
        var seen: Set<StepSpec> = []
    }

    private let state = Mutex(State())

    /// One more stage may change the step.
    func addChanger() {
        state.withLock { $0.changers += 1 }
    }

    /// A stage that could change the step has ended; the waiters run once none is left.
    func changerEnded() {
        let waiters = state.withLock { s -> [@Sendable () -> Void] in
            s.changers -= 1
            guard s.changers == 0 else { return [] }
            defer { s.waiters = [] }
            return s.waiters
        }
        for w in waiters { w() }
    }

    /// Whether no stage can change the step any more; when one still can, `resume` is called
    /// once none can.
    func settled(orNotify resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { s in
            if s.changers == 0 { return true }
            s.waiters.append(resume)
            return false
        }
    }

    /// Whether `step` is seen for the first time.
    func firstSight(of step: StepSpec) -> Bool {
        state.withLock { $0.seen.insert(step).inserted }
    }
}
