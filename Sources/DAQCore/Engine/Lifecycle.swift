/// The states a pipeline and each of its stages go through.
///
/// `idle → starting → running ⇄ paused → stopping → finished | failed | cancelled`;
/// a failure or a cancel may come from any state before the end.
public enum LifecycleState: String, Sendable, Hashable, CaseIterable {
    case idle, starting, running, paused, stopping, finished, failed, cancelled

    /// Whether no further transition is possible.
    public var isFinal: Bool { self == .finished || self == .failed || self == .cancelled }

    /// The states observers are told of on the way from `self` to `next`, `next` last: an end
    /// from running or paused passes through `stopping`, and a start straight into a pause
    /// through `running`, so every step told is one ``canMove(to:)`` allows.
    func route(to next: LifecycleState) -> [LifecycleState] {
        if next.isFinal, self == .running || self == .paused { return [.stopping, next] }
        if next == .paused, self == .starting { return [.running, next] }
        return [next]
    }

    /// Whether moving from `self` to `next` is allowed.
    public func canMove(to next: LifecycleState) -> Bool {
        switch (self, next) {
        case (.idle, .starting), (.starting, .running), (.running, .paused), (.paused, .running),
            (.running, .stopping), (.paused, .stopping), (.stopping, .finished), (.starting, .stopping):
            return true
        case (let from, .failed), (let from, .cancelled):
            return !from.isFinal
        default:
            return false
        }
    }
}
