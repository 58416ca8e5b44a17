/// What changed in the news between two polls: items whose id is new, and items whose
/// language, text or `updated` differ from what the last poll saw. Removed items are forgotten,
/// so one that comes back counts as new.
struct NewsChanges {
    enum Change: String { case new, edited }

    private var known: [String: NewsItemAnswer] = [:]

    /// The items of `news` that are new or edited since the last call, in the service's order.
    mutating func update(_ news: NewsAnswer?) -> [(item: NewsItemAnswer, change: Change)] {
        let items = news?.items ?? []
        var changed: [(item: NewsItemAnswer, change: Change)] = []
        var next: [String: NewsItemAnswer] = [:]
        next.reserveCapacity(items.count)
        for item in items where next[item.id] == nil {
            next[item.id] = item
            switch known[item.id] {
            case nil: changed.append((item, .new))
            case let old? where old != item: changed.append((item, .edited))
            default: break
            }
        }
        known = next
        return changed
    }
}
