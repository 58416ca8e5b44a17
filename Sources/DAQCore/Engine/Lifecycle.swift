/// The states a pipeline and each of its stages go through.
///
/// `idle → starting → running ⇄ paused → stopping → finished | failed | cancelled`;
/// a failure or a cancel may come from any state before the end.
public enum LifecycleState: String, Sendable, Hashable, CaseIterable {
    case idle, starting, running, paused, stopping, finished, failed, cancelled

    /// Whether no further transition is possible.
    public var isFinal: Bool { self == .finished || self == .failed || self == .cancelled }

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
