import Synchronization

/// Names one observer of a stage's output, so that it can be removed: a tap taken over by the
/// stage a reload restarts keeps its name there.
struct TapID: Hashable, Sendable {
    private let value: UInt64
    private static let counter = Atomic<UInt64>(0)

    /// A name no other tap of this process has.
    static func next() -> TapID {
        TapID(value: counter.add(1, ordering: .relaxed).newValue)
    }
}
