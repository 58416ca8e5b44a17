import DAQCore

/// Running statistics of one field in one window: Welford's mean and variance, extremes, ends.
struct Accumulator {
    var n = 0
    var mean = 0.0
    var m2 = 0.0
    var min = Double.infinity
    var max = -Double.infinity
    var first: Value = .null
    var last: Value = .null

    /// Adds a value; returns `false` for a NaN or infinite number, which only `first` and
    /// `last` see: one such value would make the window's mean, std, min or max meaningless.
    @discardableResult
    mutating func add(_ v: Value) -> Bool {
        if first.isNull { first = v }
        if !v.isNull { last = v }
        guard let d = v.doubleValue else { return true }
        guard d.isFinite else { return false }
        n += 1
        let delta = d - mean
        mean += delta / Double(n)
        m2 += delta * (d - mean)
        if d < min { min = d }
        if d > max { max = d }
        return true
    }

    func value(_ stat: WindowTransform.Statistic) -> Value {
        switch stat {
        case .count: return .int(Int64(n))
        case .mean: return n > 0 ? .double(mean) : .null
        case .min: return n > 0 ? .double(min) : .null
        case .max: return n > 0 ? .double(max) : .null
        case .std: return n > 1 ? .double((m2 / Double(n - 1)).squareRoot()) : .null
        case .first: return first
        case .last: return last
        }
    }
}

/// The groups of one window, in order of first appearance.
struct WindowGroups {
    let fieldCount: Int
    var keys: [Value] = []
    var counts: [Int] = []
    var accumulators: [[Accumulator]] = []
    var stepPaths: [String] = []
    /// The data's time at run-clock 0 (`timestamp − uptime`) of the window's first sample: its
    /// times go out on the data's time base, a replayed recording's dates included.
    var origin: Double?

    init(fieldCount: Int) { self.fieldCount = fieldCount }

    /// Adds row `row` of `batch`; returns the index of a field whose value was NaN or infinite.
    @discardableResult
    mutating func add(key: Value, row: Int, batch: Batch, columns: [Int?], stepPath: String) -> Int? {
        let g: Int
        if let i = keys.firstIndex(of: key) {
            g = i
        } else {
            keys.append(key)
            counts.append(0)
            accumulators.append(Array(repeating: Accumulator(), count: fieldCount))
            stepPaths.append(stepPath)
            g = keys.count - 1
        }
        counts[g] += 1
        stepPaths[g] = stepPath
        if origin == nil { origin = ((batch.timestamps[row] - batch.uptimes[row]) * 1e6).rounded() / 1e6 }
        var nonFinite: Int?
        for (f, c) in columns.enumerated() {
            if !accumulators[g][f].add(c.map { batch.columns[$0][row] } ?? .null) { nonFinite = f }
        }
        return nonFinite
    }

    /// Appends one sample per group, stamped with the window's end on the data's time base;
    /// `window_start` and `window_end` are on that time base too.
    func emit(
        into out: inout Batch, start: Double, end: Double, fields: [String], stats: [WindowTransform.Statistic],
        groupBy: String?
    ) {
        let origin = origin ?? 0
        for g in keys.indices {
            var f = Fields()
            f["window_start"] = .double(origin + start)
            f["window_end"] = .double(origin + end)
            // A stepPath group is the output sample's own stepPath, not a field.
            if let groupBy, groupBy != "stepPath" { f[groupBy] = keys[g] }
            if stats.contains(.count) { f["count"] = .int(Int64(counts[g])) }
            for (i, name) in fields.enumerated() {
                for stat in stats where stat != .count {
                    f["\(name)_\(stat.rawValue)"] = accumulators[g][i].value(stat)
                }
            }
            out.append(Sample(timestamp: origin + end, uptime: end, stepPath: stepPaths[g], fields: f))
        }
    }
}
