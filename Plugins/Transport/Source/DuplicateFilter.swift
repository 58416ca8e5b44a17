import NIOCore

/// Remembers the last `capacity` message ids, so a message delivered twice (QoS 1 re-sent
/// after a reconnect, a spool re-sent after a restart) is passed on once.
///
/// A plain value; its owner serializes access.
struct DuplicateFilter {
    let capacity: Int
    private var seen = Set<String>()
    private var order = CircularBuffer<String>()

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Whether `id` is new; a new id is remembered, evicting the oldest beyond capacity.
    mutating func admit(_ id: String) -> Bool {
        guard seen.insert(id).inserted else { return false }
        order.append(id)
        if order.count > capacity { seen.remove(order.removeFirst()) }
        return true
    }
}
