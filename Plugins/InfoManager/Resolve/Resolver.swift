import DAQCore
import DequeModule
import Foundation

/// How a sample's id was resolved: the `resolve_state` field.
public enum ResolveState: String, Sendable {
    /// The service answered with data.
    case resolved = "RESOLVED"
    /// The service answered that it has no data for the id (now, or within the cache's TTL).
    case noData = "NODATA"
    /// Served from the cache: within its TTL, or older while the service cannot be reached.
    case cached = "CACHED"
    /// Resolving is disabled, or the service failed and nothing was cached.
    case unresolved = "UNRESOLVED"
}

/// The outcome for one id.
struct ResolveOutcome {
    var state: ResolveState
    var answer: ElementAnswer?
    /// Why the lookup failed, when it did and nothing cached could answer instead: such an
    /// id is UNRESOLVED under `on_error: stop` and rejected under `skip` or `dead_letter`.
    /// `nil` for every answer, a cached one included, and when resolving is disabled.
    var failure: String?
}

/// Resolves ids for one stage: cache first, then the service with at most `maxInFlight`
/// requests open, merging requests for an id already asked about.
///
/// After a request fails because the service cannot be reached, the resolver stops asking for
/// a while (one second, doubling to 30 s) and answers from the cache or as UNRESOLVED at once,
/// then lets one request through to see whether the service is back: a dead service costs a
/// pipeline one timeout, not one per id.
///
/// # Thread safety
/// Confined to the stage's queue. HTTP completions come back to it through
/// ``StageContext/perform(_:)``.
final class Resolver {
    typealias Completion = (ResolveOutcome) -> Void

    /// Counts reported at the end of the run.
    struct Counters {
        var requests = 0, resolved = 0, noData = 0, cacheHits = 0, merged = 0, failed = 0, skipped = 0
    }

    private let client: InfoManagerClient?
    private let cache: ResolveCache
    private let context: StageContext
    private let maxInFlight: Int
    private var waiting: [String: [Completion]] = [:]
    private var queued = Deque<String>()
    private var inFlight = 0
    private var outageUntil = 0.0
    private var outagePause = 1.0
    private var lastOutage: String?
    private(set) var counters = Counters()

    init(client: InfoManagerClient?, cache: ResolveCache, maxInFlight: Int, context: StageContext) {
        self.client = client
        self.cache = cache
        self.maxInFlight = maxInFlight
        self.context = context
    }

    /// Ids asked about and not answered yet.
    var outstanding: Int { waiting.count }

    /// The outcome for `id` when it is known without asking the service (a fresh cache entry,
    /// resolving disabled, an outage); `nil` when ``request(_:completion:)`` must ask.
    /// `now` is seconds since 1970, read once per batch.
    func known(_ id: String, now: Double) -> ResolveOutcome? {
        guard client != nil else { return ResolveOutcome(state: .unresolved) }
        let found = cache.lookup(id, now: now)
        if case .fresh(let entry)? = found {
            counters.cacheHits += 1
            return ResolveOutcome(state: entry.answer == nil ? .noData : .cached, answer: entry.answer)
        }
        if waiting[id] == nil, monotonicNow() < outageUntil {
            counters.skipped += 1
            return Self.fallback(found, failure: lastOutage)
        }
        return nil
    }

    /// Asks the service for `id`, or joins the request already open for it; `completion` is
    /// called on the stage's queue once the service has answered or failed.
    func request(_ id: String, completion: @escaping Completion) {
        if waiting[id] != nil {
            counters.merged += 1
            waiting[id]!.append(completion)
            return
        }
        guard let client else { return completion(ResolveOutcome(state: .unresolved)) }
        waiting[id] = [completion]
        queued.append(id)
        startRequests(client)
    }

    private func startRequests(_ client: InfoManagerClient) {
        while inFlight < maxInFlight, let id = queued.popFirst() {
            inFlight += 1
            counters.requests += 1
            let context = self.context
            let resolver = QueueConfined(self)
            client.element(id) { result in
                context.perform { resolver.value?.finished(id, result) }
            }
        }
    }

    private func finished(_ id: String, _ result: Result<InfoManagerClient.Answer, InfoManagerClient.Failure>) {
        inFlight -= 1
        let now = Date().timeIntervalSince1970
        let outcome: ResolveOutcome
        switch result {
        case .success(.element(let answer)):
            counters.resolved += 1
            cache.store(id, answer: answer, now: now)
            outcome = ResolveOutcome(state: .resolved, answer: answer)
            serviceAnswered()
        case .success(.noData):
            counters.noData += 1
            cache.store(id, answer: nil, now: now)
            outcome = ResolveOutcome(state: .noData)
            serviceAnswered()
        case .failure(let failure):
            counters.failed += 1
            outcome = Self.fallback(cache.lookup(id, now: now), failure: failure.description)
            if failure.isOutage { serviceDown(failure) } else { context.warn("'\(id)': \(failure)") }
        }
        let completions = waiting.removeValue(forKey: id) ?? []
        for completion in completions { completion(outcome) }
        if let client {
            if monotonicNow() < outageUntil { drainQueued() } else { startRequests(client) }
        }
    }

    /// What a failed lookup answers: an old answer when there is one, else UNRESOLVED carrying
    /// `failure`, the reason the service gave no answer.
    private static func fallback(_ found: ResolveCache.Lookup?, failure: String?) -> ResolveOutcome {
        switch found {
        case .fresh(let e)?, .stale(let e)?:
            return e.answer.map { ResolveOutcome(state: .cached, answer: $0) } ?? ResolveOutcome(state: .noData)
        case nil:
            return ResolveOutcome(state: .unresolved, failure: failure ?? "the service cannot be reached")
        }
    }

    private func serviceDown(_ failure: InfoManagerClient.Failure) {
        outageUntil = monotonicNow() + outagePause
        if lastOutage == nil {
            context.warn(
                "\(failure); samples pass from the cache or as UNRESOLVED until it answers (retrying every \(Int(outagePause)) s or more)"
            )
        }
        lastOutage = failure.description
        outagePause = min(outagePause * 2, 30)
    }

    private func serviceAnswered() {
        if lastOutage != nil { context.notice("the service answers again") }
        lastOutage = nil
        outagePause = 1
    }

    /// During an outage, ids waiting for a request slot are answered at once.
    private func drainQueued() {
        let now = Date().timeIntervalSince1970
        while let id = queued.popFirst() {
            counters.skipped += 1
            let outcome = Self.fallback(cache.lookup(id, now: now), failure: lastOutage)
            for completion in waiting.removeValue(forKey: id) ?? [] { completion(outcome) }
        }
    }

    private static let origin = ContinuousClock.now

    /// Seconds on the monotonic clock, which an outage's pause is measured on.
    private func monotonicNow() -> Double {
        // The origin first: made on first use, it must not come after the `now` it is taken from.
        let origin = Self.origin
        let (seconds, attoseconds) = (ContinuousClock.now - origin).components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// One line for the end of the run.
    var summary: String {
        let c = counters
        return "\(c.requests) request(s): \(c.resolved) resolved, \(c.noData) without data, \(c.failed) failed; "
            + "\(c.cacheHits) cache hit(s), \(c.merged) merged into a request in flight, \(c.skipped) answered without asking during an outage"
    }
}
