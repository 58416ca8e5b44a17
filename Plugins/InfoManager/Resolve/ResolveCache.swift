import DAQCore
import Foundation

/// What the resolver remembers of ids it has asked about: the answer, or that the service
/// had no data for the id, and when.
///
/// Confined to the resolver stage's queue: a cache hit is a dictionary lookup, no lock, so
/// serving from the cache keeps up with any source. Size is bounded by `maxEntries`; when
/// full, the least recently used eighth is dropped at once, so eviction costs
/// O(log n) per insertion on average while a hit stays O(1).
final class ResolveCache {
    struct Entry: Codable {
        /// `nil`: the service answered that it has no data for the id.
        var answer: ElementAnswer?
        /// Seconds since 1970 when the service answered.
        var stored: Double
        /// Recency for eviction; not saved.
        var used: UInt64 = 0

        enum CodingKeys: String, CodingKey { case answer, stored }
    }

    /// How an id was found.
    enum Lookup {
        /// Within the TTL.
        case fresh(Entry)
        /// Older than the TTL: used only when the service cannot be reached.
        case stale(Entry)
    }

    let ttl: Double
    let maxEntries: Int
    private var entries: [String: Entry] = [:]
    private var tick: UInt64 = 0

    init(ttl: Double, maxEntries: Int) {
        self.ttl = ttl
        self.maxEntries = max(1, maxEntries)
    }

    var count: Int { entries.count }

    func lookup(_ id: String, now: Double) -> Lookup? {
        guard let i = entries.index(forKey: id) else { return nil }
        tick &+= 1
        entries.values[i].used = tick  // in place: one hash per hit
        let entry = entries.values[i]
        return now - entry.stored <= ttl ? .fresh(entry) : .stale(entry)
    }

    func store(_ id: String, answer: ElementAnswer?, now: Double) {
        tick &+= 1
        entries[id] = Entry(answer: answer, stored: now, used: tick)
        if entries.count > maxEntries { evict() }
    }

    private func evict() {
        let drop = max(1, entries.count - maxEntries + maxEntries / 8)
        let oldest = entries.sorted { $0.value.used < $1.value.used }.prefix(drop)
        for (id, _) in oldest { entries[id] = nil }
    }

    /// The entries as a snapshot for saving, oldest use first so a reload keeps recency.
    var snapshot: [(id: String, entry: Entry)] {
        entries.sorted { $0.value.used < $1.value.used }.map { ($0.key, $0.value) }
    }

    /// Restores entries read from a cache file, in the order given (oldest use first).
    func restore(_ items: [(id: String, entry: Entry)]) {
        for (id, entry) in items {
            tick &+= 1
            var e = entry
            e.used = tick
            entries[id] = e
        }
        if entries.count > maxEntries { evict() }
    }
}
