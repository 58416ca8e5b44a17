/// How a replay places its rows on the run clock, and what their times showed on the way: the
/// first and latest time, the spacing, the samples emitted, the times that went back.
///
/// A value the replay copies into a local for its per-row loop and stores back after it, so the
/// hot loop touches no class storage.
struct ReplayTimes {
    /// The recording's first time since the replay (re)started; `nil` before it.
    var firstTime: Double?
    /// The latest time so far.
    var lastTime: Double?
    /// The last emitted row's time after `start`, seconds.
    var lastRelative = 0.0
    /// Where the run clock stood when the replay last started over (`loop: true`).
    var loopOffset = 0.0
    /// The spacing of the first rows (and after any repeated time), for the next loop's start.
    var period = 0.0
    /// The first intervals between samples, for the rate the log and manifest state: as
    /// `daq inspect` does, from many intervals, where one carries its jitter (97.66 Hz for 100 Hz).
    var intervals: [Double] = []
    var backwards = 0
    var emitted = 0

    /// The run-clock time of every row of `rows` when each is a finite data sample, in order,
    /// and inside `start…end` after the first time: the common case, placed in two plain passes
    /// as the row-by-row rule would place them. `nil`, with nothing changed, otherwise.
    mutating func placeAll(_ rows: RowBuffer, start: Double, end: Double) -> [Double]? {
        let times = rows.times
        guard let head = times.first, rows.extras.isEmpty, rows.stepPaths.isEmpty, rows.kinds.isEmpty else {
            return nil
        }
        var previous = lastTime ?? head
        for i in times.indices {
            let t = times[i]
            guard t.isFinite && rows.xs[i].isFinite && rows.ys[i].isFinite && rows.zs[i].isFinite && t >= previous
            else { return nil }
            previous = t
        }
        let first = firstTime ?? head
        guard head - first >= start && times[times.count - 1] - first <= end else { return nil }
        firstTime = first
        var i = 0
        if let last = lastTime {
            // The spacing is followed over the first 64 rows, and on while it is 0.
            var before = last
            while i < times.count && (emitted + i < 64 || period == 0 || intervals.count < 1024) {
                if emitted + i < 64 || period == 0 { period = times[i] - before }
                if intervals.count < 1024 { intervals.append(times[i] - before) }
                before = times[i]
                i += 1
            }
        } else {
            // The very first row has no interval before it; the next ones do.
            var before = head
            i = 1
            while i < times.count && (emitted + i < 64 || period == 0 || intervals.count < 1024) {
                if emitted + i < 64 || period == 0 { period = times[i] - before }
                if intervals.count < 1024 { intervals.append(times[i] - before) }
                before = times[i]
                i += 1
            }
        }
        lastTime = times[times.count - 1]
        var uptimes = [Double](repeating: 0, count: times.count)
        for k in times.indices { uptimes[k] = loopOffset + ((times[k] - first) - start) }
        lastRelative = (times[times.count - 1] - first) - start
        emitted += times.count
        return uptimes
    }
}
