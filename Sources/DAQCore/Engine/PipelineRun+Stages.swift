import Dispatch
import Foundation
import Synchronization

/// What stages tell their run: failures, and counting themselves out.
extension PipelineRun {
    /// The lifecycle says it: no flag beside it to disagree.
    var isPaused: Bool { state.withLock { $0.machine.lifecycle == .paused } }

    /// Hands `event` to observers and the event streams; warnings and notices go through the
    /// run's ``ReportLimiter`` first, so a flood of them comes out as the first few and a count.
    func publish(_ event: PipelineEvent) {
        let verdict: ReportLimiter.Verdict
        switch event {
        case .warning(let c, let m):
            verdict = reports.withLock { $0.admit(component: c, severity: .warning, message: m) }
        case .notice(let c, let m): verdict = reports.withLock { $0.admit(component: c, severity: .notice, message: m) }
        default: verdict = .pass
        }
        switch (verdict, event) {
        case (.pass, _): send(event)
        case (.count, _): break
        case (.summary(let text), .warning(let c, _)): send(.warning(component: c, message: text))
        case (.summary(let text), .notice(let c, _)): send(.notice(component: c, message: text))
        case (.summary, _): send(event)
        }
    }

    /// The last summary of every kind of message `component` left out: when its stage ends.
    func publishReportSummaries(of component: String) {
        for s in reports.withLock({ $0.summaries(of: component) }) {
            switch s.severity {
            case .warning: send(.warning(component: s.component, message: s.message))
            case .notice: send(.notice(component: s.component, message: s.message))
            }
        }
    }

    private func send(_ event: PipelineEvent) {
        for o in observers { o.handle(event) }
        eventHub.feed(event, of: self)
    }

    /// `stage` admitted the last of `--max-samples`: every other source stops, off the stage's queue.
    func maxSamplesReached(by stage: StageRuntime) {
        pool.async { [weak self, weak stage] in self?.stop(sparing: stage) }
    }

    func stageFailed(_ stage: StageRuntime) {
        let error = stage.firstFailure.withLock { $0 } ?? stage.daqError("failed")
        tell(transition { $0.stageFailed(error) })
    }

    func stageFinished(_ stage: StageRuntime) {
        if stage.changesSteps { links.steps.changerEnded() }
        // Before the run's final state: a log or event stream read to its end has the counts.
        publishReportSummaries(of: stage.name)
        let retired = stage.statistics
        var group: DispatchGroup?
        transition { m in
            (group, _) = m.stageFinished(ObjectIdentifier(stage), at: Date().timeIntervalSince1970)
            return .none
        } then: { m in
            // The last stage: the record is written and waiters released after the final event.
            guard m.lifecycle.isFinal else { return [] }
            return [.work { [self] in self.recordEnd() }]
        }
        if group != nil { roster.withLock { $0.retire(stage, final: retired) } }
        leaveAfterDelivery()
        group?.leave()
    }

    /// Leaves the run's group once what is queued has gone out, so ``wait()`` returns after the
    /// final state event and the record.
    private func leaveAfterDelivery() {
        let queued = state.withLock { c -> Bool in
            guard c.delivering else { return false }
            c.outbox.append(.work { [self] in self.done.leave() })
            return true
        }
        if !queued { done.leave() }
    }

    /// Counts `stage` in: it may change steps, and the run waits for it once started.
    func count(in stage: StageRuntime) {
        if stage.changesSteps { links.steps.addChanger() }
    }
}
