/// What a live source with `pause: buffer` keeps while the run is paused, bounded by the
/// capacity its stage gives: past it, samples are dropped and counted, and the count is told once, at the end
/// of the pause.
///
/// # Thread safety
/// Not thread-safe: its source stage uses it on the stage's serial queue only.
struct PauseHold {
    private enum State {
        case empty
        /// What was kept, in the order it came, and how many samples did not fit.
        case holding(Batch, dropped: Int)
    }

    private var state = State.empty

    /// Samples kept now.
    var count: Int {
        if case .holding(let kept, _) = state { return kept.count }
        return 0
    }

    /// Whether nothing is kept and nothing was dropped.
    var isEmpty: Bool {
        if case .empty = state { return true }
        return false
    }

    /// Keeps as much of `batch` as fits in `capacity` samples; returns how many were dropped.
    mutating func keep(_ batch: Batch, capacity: Int) -> Int {
        guard !batch.isEmpty else { return 0 }
        var kept: Batch
        var dropped: Int
        switch state {
        case .empty: (kept, dropped) = (Batch(stream: batch.stream, capacity: batch.count), 0)
        case .holding(let k, let d): (kept, dropped) = (k, d)
        }
        // Emptied first, so `kept` is the only reference and grows in place.
        state = .empty
        let room = max(0, capacity - kept.count)
        let fits = min(room, batch.count)
        kept.append(contentsOf: fits == batch.count ? batch : batch.slice(0..<fits))
        let lost = batch.count - fits
        state = .holding(kept, dropped: dropped + lost)
        return lost
    }

    /// What was kept and how many were dropped, once; the hold is empty after.
    mutating func take() -> (kept: Batch, dropped: Int)? {
        guard case .holding(let kept, let dropped) = state else { return nil }
        state = .empty
        return (kept, dropped)
    }
}
