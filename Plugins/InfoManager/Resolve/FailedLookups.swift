import DAQCore

/// What `infomanager.resolve` hands to its component's `on_error`: samples whose lookup failed
/// with nothing cached to answer instead (under `skip` and `dead_letter`; `stop` keeps them as
/// UNRESOLVED), and for the sink also samples whose element could not be written.
enum FailedLookups {
    /// `items` grouped by their reason, in the order each reason was first met; items without
    /// one are left out. One group makes one report: an outage is not one warning per sample.
    static func grouped<T>(_ items: some Sequence<T>, by reason: (T) -> String?) -> [(reason: String, items: [T])] {
        var groups: [(reason: String, items: [T])] = []
        var index: [String: Int] = [:]
        for item in items {
            guard let why = reason(item) else { continue }
            if let i = index[why] {
                groups[i].items.append(item)
            } else {
                index[why] = groups.count
                groups.append((why, [item]))
            }
        }
        return groups
    }

    /// The samples of `batch` at `rows`, in order.
    static func rows(_ rows: [Int], of batch: Batch) -> Batch {
        var keep = [Bool](repeating: false, count: batch.count)
        for row in rows { keep[row] = true }
        var out = batch
        out.retain(keep, kept: rows.count)
        return out
    }
}
