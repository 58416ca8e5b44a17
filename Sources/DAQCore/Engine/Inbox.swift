import DequeModule
import Synchronization

/// The bounded buffer in front of a transform or sink: the edge every input writes into.
///
/// Capacity is counted in samples. Under `block` an offer is always taken (so a buffer holds
/// at most its size plus one batch) and the producer is told to wait; it registers a waiter and
/// is called back when the consumer has made room. Under `drop_oldest` and `drop_newest` the
/// producer never waits and every dropped sample is counted.
///
/// # Thread safety
/// All state sits behind one `Mutex`, taken once per batch, never per sample. Callbacks run
/// outside the lock.
final class Inbox: Sendable {
    enum Take {
        case batch(Batch)
        /// Nothing buffered; the consumer is marked idle and will be woken by the next offer.
        case empty
        /// Nothing buffered and every input has ended.
        case ended
    }

    private struct State {
        var queue = Deque<Batch>()
        var samples = 0
        var openInputs = 0
        var scheduled = false
        var waiters: [@Sendable () -> Void] = []
        var dropped = 0
        var peak = 0
        var discarding = false
    }

    /// The consumer's name, for drop reports.
    let owner: String
    let capacity: Int
    let policy: WhenFull
    private let state = Mutex(State())
    private let wake: @Sendable () -> Void
    /// The consumer's instruments: buffer fill and drops, recorded per batch.
    private let metrics: StageMetrics?

    /// Creates an inbox; `wake` schedules the consumer's drain on its queue.
    init(
        owner: String, capacity: Int, policy: WhenFull, metrics: StageMetrics? = nil,
        wake: @escaping @Sendable () -> Void
    ) {
        self.owner = owner
        self.capacity = capacity
        self.policy = policy
        self.metrics = metrics
        self.wake = wake
    }

    /// Whether a buffered batch starts before `uptime`: data on its way that a tick at `uptime`
    /// must wait for. Asked when a tick is due, never per batch.
    func holdsData(before uptime: Double) -> Bool {
        state.withLock { s in s.queue.contains { ($0.uptimes.first ?? .infinity) < uptime } }
    }

    /// Declares one more producer; each calls ``closeInput()`` when it ends.
    func addInput() {
        state.withLock { $0.openInputs += 1 }
    }

    /// Buffers `batch`; returns how many samples were dropped to make it fit.
    @discardableResult
    func offer(_ batch: Batch) -> Int {
        let n = batch.count
        guard n > 0 else { return 0 }
        let (dropped, wakeNow, fill) = state.withLock { s -> (Int, Bool, Int) in
            // A discarding consumer has gone: its counters (and instruments) stay as they were.
            if s.discarding { return (n, false, -1) }
            var dropped = 0
            switch policy {
            case .block:
                s.queue.append(batch)
                s.samples += n
            case .dropNewest:
                let room = capacity - s.samples
                if room <= 0 {
                    dropped = n
                } else if n <= room {
                    s.queue.append(batch)
                    s.samples += n
                } else {
                    s.queue.append(batch.slice(0..<room))
                    s.samples += room
                    dropped = n - room
                }
            case .dropOldest:
                s.queue.append(batch)
                s.samples += n
                while s.samples > capacity, let first = s.queue.first {
                    let excess = s.samples - capacity
                    if first.count <= excess {
                        s.queue.removeFirst()
                        s.samples -= first.count
                        dropped += first.count
                    } else {
                        s.queue[s.queue.startIndex] = first.slice(excess..<first.count)
                        s.samples -= excess
                        dropped += excess
                    }
                }
            }
            s.dropped += dropped
            s.peak = max(s.peak, s.samples)
            if !s.scheduled && !s.queue.isEmpty {
                s.scheduled = true
                return (dropped, true, s.samples)
            }
            return (dropped, false, s.samples)
        }
        if let metrics, fill >= 0 {
            metrics.buffered.record(fill)
            if dropped > 0 { metrics.dropped.increment(by: Int64(dropped)) }
        }
        if wakeNow { wake() }
        return dropped
    }

    /// Whether a producer may offer more now. When not, `waiter` is registered and called
    /// once room is made; under a `drop_*` policy there is always room.
    func hasRoom(orNotify waiter: @escaping @Sendable () -> Void) -> Bool {
        guard policy == .block else { return true }
        return state.withLock { s in
            if s.samples < capacity || s.discarding { return true }
            s.waiters.append(waiter)
            return false
        }
    }

    /// Takes the oldest batch, or says the buffer is empty (marking the consumer idle) or ended.
    func take() -> Take {
        let (result, waiters, fill) = state.withLock { s -> (Take, [@Sendable () -> Void], Int) in
            guard let batch = s.queue.popFirst() else {
                if s.openInputs == 0 { return (.ended, [], 0) }
                s.scheduled = false
                return (.empty, [], 0)
            }
            s.samples -= batch.count
            var woken: [@Sendable () -> Void] = []
            if s.samples < capacity && !s.waiters.isEmpty {
                woken = s.waiters
                s.waiters.removeAll()
            }
            return (.batch(batch), woken, s.samples)
        }
        metrics?.buffered.record(fill)
        for w in waiters { w() }
        return result
    }

    /// One producer has ended; the consumer is woken to notice when it was the last.
    func closeInput() {
        let wakeNow = state.withLock { s -> Bool in
            s.openInputs -= 1
            if !s.scheduled {
                s.scheduled = true
                return true
            }
            return false
        }
        if wakeNow { wake() }
    }

    /// Drops everything buffered and refuses what comes later (a cancelled or failed consumer),
    /// releasing waiting producers. Returns the number of samples discarded.
    @discardableResult
    func discardAll() -> Int {
        let (n, waiters) = state.withLock { s -> (Int, [@Sendable () -> Void]) in
            s.discarding = true
            let n = s.samples
            s.queue.removeAll()
            s.samples = 0
            let w = s.waiters
            s.waiters.removeAll()
            return (n, w)
        }
        for w in waiters { w() }
        return n
    }

    /// Samples dropped so far, samples buffered now, and the most ever buffered.
    var counters: (dropped: Int, buffered: Int, peak: Int) {
        state.withLock { ($0.dropped, $0.samples, $0.peak) }
    }
}
