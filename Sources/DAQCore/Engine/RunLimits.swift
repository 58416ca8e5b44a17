import Synchronization

/// The run's `--duration` and `--max-samples`, applied to every batch a source reads. Its own
/// lock: admission is on every source batch's path and shares nothing with the run's lifecycle.
final class RunLimits: Sendable {
    /// Whether a source's batch stayed within the run's limits, or which limit it reached.
    enum Admission { case open, duration, samples }

    let duration: Double?
    let maxSamples: Int?
    /// Samples admitted in all, and by each source: a source's budget is what the others left.
    private let admitted = Mutex(Admitted())

    private struct Admitted {
        var total = 0
        var bySource: [String: Int] = [:]
    }

    init(duration: Double?, maxSamples: Int?) {
        self.duration = duration
        self.maxSamples = maxSamples
    }

    /// Cuts `batch` to the limits and counts what is left in. `.samples` means this batch took
    /// the last of `--max-samples`: every other source must stop.
    func admit(_ batch: inout Batch, from source: String) -> Admission {
        var reached = false
        if let duration, let cut = batch.uptimes.firstIndex(where: { $0 >= duration }) {
            batch = batch.slice(0..<cut)
            reached = true
        }
        guard let maxSamples else { return reached ? .duration : .open }
        let count = batch.count
        let (allowed, full) = admitted.withLock { a -> (Int, Bool) in
            let allowed = min(count, max(0, maxSamples - a.total))
            a.total += allowed
            a.bySource[source, default: 0] += allowed
            return (allowed, a.total >= maxSamples)
        }
        if allowed < batch.count { batch = batch.slice(0..<allowed) }
        return full ? .samples : reached ? .duration : .open
    }

    /// How many samples `source` may still hand over in all, counting those it already has:
    /// `--max-samples` less what the other sources were admitted. `nil` without that limit.
    func budget(for source: String) -> Int? {
        guard let maxSamples else { return nil }
        return admitted.withLock { a in maxSamples - (a.total - a.bySource[source, default: 0]) }
    }
}
