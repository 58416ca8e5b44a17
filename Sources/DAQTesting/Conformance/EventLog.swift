import DAQCore
import Foundation

/// Every event of a run, and a way to wait, with a deadline, until they show something.
///
/// # Thread safety
/// The events sit behind an `NSCondition`; the engine appends from any queue, a test waits.
final class EventLog: PipelineObserver, @unchecked Sendable {
    // @unchecked: `events` is touched only with `condition` locked.
    private let condition = NSCondition()
    private var events: [PipelineEvent] = []

    func handle(_ event: PipelineEvent) {
        condition.lock()
        events.append(event)
        condition.broadcast()
        condition.unlock()
    }

    var all: [PipelineEvent] {
        condition.lock()
        defer { condition.unlock() }
        return events
    }

    /// Waits until `done` holds for the events so far; `false` once `timeout` seconds passed
    /// first (a hang guard: waiting is for events, never for time).
    func wait(timeout: Double, until done: ([PipelineEvent]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while !done(events) {
            if !condition.wait(until: deadline) { return done(events) }
        }
        return true
    }
}

extension PipelineEvent {
    /// The state a component (or the pipeline, `nil`) moved to, if this is a state change.
    func state(of component: String?) -> LifecycleState? {
        if case .state(component, _, let to) = self { return to }
        return nil
    }
}
