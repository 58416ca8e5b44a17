import Foundation

/// Weaves step markers into a sink's stream: one at start, one at every step change (placed
/// before the first sample at or after the step's time), and one at stop. Each carries a
/// `marker` field saying which (`start`, `step`, `stop`), so a reader tells markers from data
/// without guessing from missing fields.
///
/// Markers follow data time, not arrival time, so their order with the data is the same under
/// every clock. Their `timestamp` is on the time base of the data they are woven into: the
/// recording's time at their uptime for a replayed recording (``origin``), the run's wall time
/// for live data.
struct StepMarkers {
    /// What a marker marks, as its `marker` field says.
    enum Mark: String {
        case start, step, stop
    }

    private(set) var steps: [StepSpec]
    let stream: String
    /// The time at uptime 0 on the data's time base: the run's start date for live data, the
    /// recording's time at run-clock 0 for a replay, as the data woven last says.
    var origin: Double
    private var next = 0
    private var current = ""
    private var changes: [(String, Double)] = []
    /// The latest data time seen, so the stop marker never precedes data.
    private var latest = 0.0

    init(steps: [StepSpec], stream: String, origin: Double) {
        self.steps = steps
        self.stream = stream
        self.origin = origin
    }

    /// The marker written at start: the step current at time 0 (steps at 0 are taken now).
    mutating func start() -> Batch {
        var b = Batch(stream: stream)
        advance(upTo: 0)
        appendMarker(&b, .start, current, 0)
        return b
    }

    /// The data of `batch` with a marker before the first sample of each step reached.
    mutating func weave(_ batch: Batch) -> Batch {
        if let last = batch.uptimes.last, last > latest { latest = last }
        guard next < steps.count, let last = batch.uptimes.last, last >= steps[next].at else { return batch }
        var out = Batch(stream: batch.stream, capacity: batch.count + 1)
        var from = 0
        for i in 0..<batch.count where next < steps.count && batch.uptimes[i] >= steps[next].at {
            if i > from { out.append(contentsOf: batch.slice(from..<i)) }
            from = i
            while next < steps.count && batch.uptimes[i] >= steps[next].at {
                current = steps[next].path
                changes.append((current, steps[next].at))
                appendMarker(&out, .step, current, steps[next].at)
                next += 1
            }
        }
        out.append(contentsOf: batch.slice(from..<batch.count))
        return out
    }

    /// Markers for steps due by `uptime` that no data crossed, then the stop marker.
    mutating func stop(at end: Double) -> Batch {
        let uptime = Swift.max(end, latest)
        var b = Batch(stream: stream)
        while next < steps.count && steps[next].at <= uptime {
            current = steps[next].path
            changes.append((current, steps[next].at))
            appendMarker(&b, .step, current, steps[next].at)
            next += 1
        }
        appendMarker(&b, .stop, current, uptime)
        return b
    }

    /// Takes a newer schedule: steps already marked stay marked; the others wait in time order.
    /// A step added for a time this stream has passed is marked before its next sample.
    mutating func update(steps newer: [StepSpec]) {
        let done = Array(steps[..<next])
        var remaining = newer
        for step in done {
            if let i = remaining.firstIndex(of: step) { remaining.remove(at: i) }
        }
        steps = done + remaining
    }

    /// Step changes woven since the last call.
    mutating func takeChanges() -> [(String, Double)] {
        defer { changes = [] }
        return changes
    }

    private mutating func advance(upTo uptime: Double) {
        while next < steps.count && steps[next].at <= uptime {
            current = steps[next].path
            changes.append((current, steps[next].at))
            next += 1
        }
    }

    private func appendMarker(_ b: inout Batch, _ mark: Mark, _ path: String, _ uptime: Double) {
        b.append(
            Sample(
                stream: stream, timestamp: origin + uptime, uptime: uptime, stepPath: path, kind: .marker,
                fields: [StreamDescriptor.markerField.name: .string(mark.rawValue)]))
    }
}
