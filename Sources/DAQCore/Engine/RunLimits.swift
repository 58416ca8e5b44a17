import Synchronization

/// The run's `--duration` and `--max-samples`, applied to every batch a source reads. Its own
/// lock: admission is on every source batch's path and shares nothing with the run's lifecycle.
final class RunLimits: Sendable {
    /// Whether a source's batch stayed within the run's limits, or which limit it reached.
    enum Admission { case open, duration, samples }

    let duration: Double?
    let maxSamples: Int?
    private let admitted = Mutex(0)

    init(duration: Double?, maxSamples: Int?) {
        self.duration = duration
        self.maxSamples = maxSamples
    }

    /// Cuts `batch` to the limits and counts what is left in. `.samples` means this batch took
    /// the last of `--max-samples`: every other source must stop.
    func admit(_ batch: inout Batch) -> Admission {
        var reached = false
        if let duration, let cut = batch.uptimes.firstIndex(where: { $0 >= duration }) {
            batch = batch.slice(0..<cut)
            reached = true
        }
        guard let maxSamples else { return reached ? .duration : .open }
        let (allowed, full) = admitted.withLock { n -> (Int, Bool) in
            let allowed = min(batch.count, max(0, maxSamples - n))
            n += allowed
            return (allowed, n >= maxSamples)
        }
        if allowed < batch.count { batch = batch.slice(0..<allowed) }
        return full ? .samples : reached ? .duration : .open
    }
}
