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

    /// Takes the time of the next row read (kept or not): the first and latest time, the
    /// spacing over the first 64 rows emitted (and on while it is 0), the first 1024 intervals.
    /// - Returns: how far the time goes back from the latest, when it does; `nil` otherwise.
    mutating func see(_ time: Double) -> Double? {
        if firstTime == nil { firstTime = time }
        var back: Double?
        if let last = lastTime {
            if time < last {
                backwards += 1
                back = last - time
            } else {
                if emitted < 64 || period == 0 { period = time - last }
                if intervals.count < 1024 { intervals.append(time - last) }
            }
        }
        if lastTime == nil || time > lastTime! { lastTime = time }
        return back
    }

    /// Emits a row `relative` seconds after `start`: returns its run-clock time.
    mutating func emit(relative: Double) -> Double {
        lastRelative = relative
        emitted += 1
        return loopOffset + relative
    }

    /// The run-clock time of every row of `rows` when each is a finite data sample, in order,
    /// and inside `start…end` after the first time: the common case, placed in plain passes as
    /// ``see(_:)`` and ``emit(relative:)`` row by row would place them. `nil`, with nothing
    /// changed, otherwise.
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
        let last = times[times.count - 1]
        guard head - first >= start && last - first <= end else { return nil }
        firstTime = first
        // Row by row while the rule can still change something; after that, in order, the rows
        // only move the latest time and the count.
        var i = 0
        while i < times.count && (emitted < 64 || period == 0 || intervals.count < 1024) {
            _ = see(times[i])
            emitted += 1
            i += 1
        }
        lastTime = last
        emitted += times.count - i
        var uptimes = [Double](repeating: 0, count: times.count)
        for k in times.indices { uptimes[k] = loopOffset + ((times[k] - first) - start) }
        lastRelative = (last - first) - start
        return uptimes
    }
}
