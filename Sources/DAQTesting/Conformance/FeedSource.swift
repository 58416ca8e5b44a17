import DAQCore
import Dispatch
import Synchronization

/// What one ``FeedSource`` emits, registered under a token its YAML names: how the
/// conformance suite hands in-memory samples to a pipeline built from text.
///
/// # Thread safety
/// Immutable but for `opened`, an `Atomic`, and `context`, behind a `Mutex`.
final class FeedPlan: Sendable {
    /// How the feed behaves once every sample has been read.
    enum End: Sendable {
        /// It finishes: the input ends by itself.
        case finish
        /// It goes idle: only a stop from outside ends it, so what was read is drained by the stop.
        case idle
    }

    let batch: Batch
    let perRead: Int
    let end: End
    /// A gated feed emits nothing until ``open()``: a heartbeat started on cue.
    let gated: Bool
    /// Signalled once every sample has been read.
    let allRead = DispatchSemaphore(value: 0)
    private let opened = Atomic<Bool>(false)
    private let context = Mutex<StageContext?>(nil)

    init(batch: Batch, perRead: Int = .max, end: End, gated: Bool = false) {
        self.batch = batch
        self.perRead = max(1, perRead)
        self.end = end
        self.gated = gated
    }

    convenience init(samples: [Sample], perRead: Int = .max, end: End, gated: Bool = false) {
        self.init(batch: Batch(stream: "feed", samples: samples), perRead: perRead, end: end, gated: gated)
    }

    var isOpen: Bool { !gated || opened.load(ordering: .acquiring) }

    func attach(_ context: StageContext) { self.context.withLock { $0 = context } }

    /// Lets a gated feed emit, and wakes its stage.
    func open() {
        opened.store(true, ordering: .releasing)
        context.withLock { $0 }?.wake()
    }

    // MARK: Registry

    private static let plans = Mutex<[String: FeedPlan]>([:])
    private static let counter = Atomic<Int>(0)

    /// Registers `plan` under a fresh token.
    static func register(_ plan: FeedPlan) -> String {
        let token = "feed-\(counter.wrappingAdd(1, ordering: .relaxed).newValue)"
        plans.withLock { $0[token] = plan }
        return token
    }

    static func plan(_ token: String) -> FeedPlan? { plans.withLock { $0[token] } }

    static func unregister(_ token: String) { _ = plans.withLock { $0.removeValue(forKey: token) } }
}

/// A source that emits the samples of a registered ``FeedPlan``: `type: conformance.feed`.
final class FeedSource: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting(required: "The registered plan.") var token: String
    }
    static let typeName = "conformance.feed"
    static let summary = "Emits samples a test registered in memory (DAQTesting conformance suite)."

    private let plan: FeedPlan
    private var next = 0

    init(configuration: Configuration, context: PluginContext) throws {
        guard let plan = FeedPlan.plan(configuration.token) else {
            throw ConfigIssue(key: "token", "no feed registered as '\(configuration.token)'")
        }
        self.plan = plan
    }

    func start(context: StageContext) throws {
        plan.attach(context)
        if plan.batch.isEmpty { plan.allRead.signal() }
    }

    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        // A gated feed is idle until opened; `open()` wakes the stage.
        guard plan.isOpen else { return .idle }
        let total = plan.batch.count
        if next < total {
            let end = min(total, next + min(limit, plan.perRead))
            batch = plan.batch.slice(next..<end)
            next = end
            if next == total { plan.allRead.signal() }
        }
        if next < total { return .more }
        return plan.end == .finish ? .finished : .idle
    }
}
