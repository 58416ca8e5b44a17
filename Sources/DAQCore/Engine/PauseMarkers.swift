/// Weaves pause and resume markers into a sink's stream, by data time like step markers.
///
/// A pause marker goes before the first sample at or after the time the clock stood still; its
/// resume marker before the first sample after that time. Samples stamped while the clock
/// stood still (what a `pause: buffer` source kept) thus sit between the two, and samples a
/// stage still had in flight when the pause began stay before it, whatever their arrival.
///
/// A sink checks ``hasPending`` per batch (after an atomic load of the clock's pause version);
/// a run that is never paused weaves nothing.
struct PauseMarkers {
    let stream: String
    private var pauses: [ClockPause] = []
    private var version = 0
    /// Markers woven so far: pause `i` is marker `2i`, its resume `2i + 1`.
    private var woven = 0

    init(stream: String) {
        self.stream = stream
    }

    /// Takes the pauses of `clock` when they changed since the last look.
    mutating func refresh(from clock: RunClock) {
        guard clock.pauseVersion != version else { return }
        (pauses, version) = clock.pauses()
    }

    /// Whether a marker is known and not yet woven.
    var hasPending: Bool { woven < known }

    /// Two markers per pause, one only for a pause not yet resumed.
    private var known: Int {
        guard let last = pauses.last else { return 0 }
        return pauses.count * 2 - (last.releasedDate == nil ? 1 : 0)
    }

    /// `batch` with the markers due before its samples woven in. With `final` (the stop
    /// batch: step markers due by the end, then the stop marker), every marker left goes
    /// before the stop marker.
    mutating func weave(_ batch: Batch, steps: [StepSpec], final: Bool = false) -> Batch {
        guard hasPending else { return batch }
        var out = Batch(stream: batch.stream, capacity: batch.count + 2)
        var from = 0
        for i in 0..<batch.count {
            let last = final && i == batch.count - 1
            guard hasPending, last || isDue(woven, before: batch.uptimes[i]) else { continue }
            if i > from { out.append(contentsOf: batch.slice(from..<i)) }
            from = i
            while hasPending, last || isDue(woven, before: batch.uptimes[i]) {
                out.append(marker(woven, steps: steps))
                woven += 1
            }
        }
        out.append(contentsOf: batch.slice(from..<batch.count))
        return out
    }

    private func isDue(_ index: Int, before uptime: Double) -> Bool {
        let at = pauses[index / 2].uptime
        return index % 2 == 0 ? uptime >= at : uptime > at
    }

    private func marker(_ index: Int, steps: [StepSpec]) -> Sample {
        let pause = pauses[index / 2]
        let path = StepSchedule.path(at: pause.uptime, in: steps)
        if index % 2 == 0 { return pause.pauseMarker(stream: stream, stepPath: path) }
        // `known` counts a resume only once it happened.
        return pause.resumeMarker(stream: stream, stepPath: path)!
    }
}
