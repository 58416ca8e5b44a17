import Dispatch
import Foundation
import Synchronization

/// What stages call on their run: admission, steps, failures, and counting themselves out.
extension PipelineRun {
    var isCancelled: Bool { state.withLock { $0.cancelled } }
    /// The lifecycle says it: no flag beside it to disagree.
    var isPaused: Bool { state.withLock { $0.lifecycle.state == .paused } }

    func publish(_ event: PipelineEvent) {
        for o in observers { o.handle(event) }
        eventHub.feed(event, of: self)
    }

    /// Applies `--max-samples` and `--duration` to a batch a source has read.
    func admit(_ batch: inout Batch, from stage: SourceStage) -> Admission {
        var reached = false
        if let duration = options.duration, let cut = batch.uptimes.firstIndex(where: { $0 >= duration }) {
            batch = batch.slice(0..<cut)
            reached = true
        }
        let (allowed, stopAll) = state.withLock { s -> (Int, Bool) in
            var allowed = batch.count
            if let max = options.maxSamples { allowed = Swift.min(allowed, Swift.max(0, max - s.admitted)) }
            s.admitted += allowed
            return (allowed, options.maxSamples.map { s.admitted >= $0 } ?? false)
        }
        if allowed < batch.count { batch = batch.slice(0..<allowed) }
        if stopAll {
            pool.async { [weak self, weak stage] in self?.stop(sparing: stage) }
            return .samples
        }
        return reached ? .duration : .open
    }

    /// A source emitted samples up to `uptime` (read-ahead samples not yet due do not count).
    func noteEmitted(upTo uptime: Double) {
        state.withLock { if uptime > $0.maxUptime { $0.maxUptime = uptime } }
    }

    /// The latest sample time any source has emitted.
    var emittedWatermark: Double { state.withLock { $0.maxUptime } }

    /// Where the run ends on its clock, for the stop marker: a recording's last sample time when
    /// it played to its end (under the virtual and the replay clock alike, so both write the same
    /// stop marker), the time of the stop when one was asked for, and now on the realtime clock.
    func finalUptime() -> Double {
        let (maxUptime, stoppedAt) = state.withLock { ($0.maxUptime, $0.stoppedAt) }
        switch clock.mode {
        case .virtual: return maxUptime
        case .replay: return Swift.max(maxUptime, stoppedAt ?? 0)
        case .realtime: return Swift.max(maxUptime, clock.now())
        }
    }

    /// Publishes each step change once, whichever sink reaches it first.
    func noteStep(_ change: (String, Double)) {
        let isNew = state.withLock { $0.stepsSeen.insert(StepSpec(path: change.0, at: change.1)).inserted }
        if isNew { publish(.stepChanged(path: change.0, uptime: change.1)) }
    }

    func stageFailed(_ stage: StageRuntime) {
        let error = stage.firstFailure.withLock { $0 } ?? stage.daqError("failed")
        state.withLock { if $0.failure == nil { $0.failure = error } }
        stop()
    }

    /// Whether no stage can change the step any more; when one still can, `resume` is called
    /// once none can.
    func stepsSettled(orNotify resume: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { s in
            if s.stepChangers == 0 || s.cancelled { return true }
            s.stepWaiters.append(resume)
            return false
        }
    }

    func stageFinished(_ stage: StageRuntime) {
        if stage.changesSteps {
            let waiters = state.withLock { s -> [@Sendable () -> Void] in
                s.stepChangers -= 1
                guard s.stepChangers == 0 else { return [] }
                defer { s.stepWaiters = [] }
                return s.stepWaiters
            }
            for w in waiters { w() }
        }
        let retired = stage.statistics
        let (all, group) = state.withLock { s -> (Bool, DispatchGroup?) in
            s.activeStages -= 1
            if s.activeStages == 0 { s.endDate = Date().timeIntervalSince1970 }
            return (s.activeStages == 0, s.retiring.removeValue(forKey: ObjectIdentifier(stage)))
        }
        if group != nil { roster.withLock { $0.retire(stage, final: retired) } }
        if all {
            let (failed, cancelled) = state.withLock { ($0.failure != nil, $0.cancelled) }
            if lifecycleState == .running || lifecycleState == .paused { move(to: .stopping) }
            move(to: failed ? .failed : cancelled ? .cancelled : .finished)
            recordEnd()
        }
        done.leave()
        group?.leave()
    }

    /// Counts `stage` in: it may change steps, and the run waits for it once started.
    func count(in stage: StageRuntime) {
        if stage.changesSteps { state.withLock { $0.stepChangers += 1 } }
    }
}
