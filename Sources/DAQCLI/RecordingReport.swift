import DAQCore
import Foundation

/// Welford's running mean and variance, with extremes.
struct RunningStats {
    var count = 0
    var mean = 0.0
    var m2 = 0.0
    var min = Double.infinity
    var max = -Double.infinity

    mutating func add(_ v: Double) {
        count += 1
        let d = v - mean
        mean += d / Double(count)
        m2 += d * (v - mean)
        if v < min { min = v }
        if v > max { max = v }
    }

    var std: Double { count > 1 ? (m2 / Double(count - 1)).squareRoot() : 0 }
}

/// Per-pixel min and max of each series: a plot that keeps every spike at any length.
struct PlotSeries {
    let buckets: Int
    let start: Double
    let duration: Double
    var low: [[Double]] = []
    var high: [[Double]] = []

    init(buckets: Int, start: Double, duration: Double) {
        self.buckets = buckets
        self.start = start
        self.duration = duration
        low = Array(repeating: Array(repeating: .infinity, count: buckets), count: 4)
        high = Array(repeating: Array(repeating: -.infinity, count: buckets), count: 4)
    }

    mutating func add(_ t: Double, _ values: [Double]) {
        guard buckets > 0 else { return }
        let b = Swift.min(buckets - 1, Swift.max(0, Int((t - start) / duration * Double(buckets))))
        for (k, v) in values.enumerated() {
            if v < low[k][b] { low[k][b] = v }
            if v > high[k][b] { high[k][b] = v }
        }
    }
}

/// What `daq inspect` found, as text and as an SVG plot.
struct RecordingReport {
    var path: String
    var rows = 0
    var first: Double?
    var last: Double?
    var period = RunningStats()
    var medianPeriod: Double?
    var axes = [RunningStats(), RunningStats(), RunningStats()]
    var gaps: [(at: Double, length: Double)] = []
    var backwards: [(at: Double, by: Double)] = []
    var steps: [(String, Double)] = []
    var warnings: [String] = []
    var notes: [String] = []
    var series: PlotSeries?
    /// The first and last sample's `timestamp` (seconds since 1970 for device files).
    var firstTimestamp: Double?
    var lastTimestamp: Double?
    /// What the file said about its device and what reading it found (`motion.replay`'s summary).
    var device: Fields?
    /// The recording's stream as a replay declares it: the axes' unit, the zone.
    var stream: StreamDescriptor?
    var days: DayPlot?

    /// True when the timestamps are dates (after 1980) and cover more than a day.
    var spansDays: Bool {
        guard let a = firstTimestamp, let b = lastTimestamp else { return false }
        return a > 315_532_800 && b - a > 86_400
    }

    static func f(_ v: Double, _ d: Int = 3) -> String { String(format: "%.\(d)f", v) }

    var text: String {
        var l = ["recording: \(path)"]
        l += deviceLines
        l.append("rows: \(rows)")
        let duration = (last ?? 0) - (first ?? 0)
        l.append("duration: \(Self.f(duration)) s")
        if period.count > 0, period.mean > 0 {
            l.append(
                "rate: \(Self.f(1 / period.mean, 2)) Hz mean; period \(Self.f(period.mean * 1000)) ms ± \(Self.f(period.std * 1000)) ms (jitter, 1 std)"
            )
        }
        if let m = medianPeriod { l.append("median period: \(Self.f(m * 1000)) ms") }
        l.append("gaps longer than twice the median period: \(gaps.count)")
        for g in gaps.prefix(10) { l.append("  at \(Self.f(g.at)) s: \(Self.f(g.length)) s") }
        if gaps.count > 10 { l.append("  … \(gaps.count - 10) more") }
        l.append("timestamps going back: \(backwards.count)")
        for b in backwards.prefix(10) { l.append("  at \(Self.f(b.at)) s: by \(Self.f(-b.by)) s") }
        for (name, s) in zip(["x", "y", "z"], axes) where s.count > 0 {
            l.append("\(name): min \(Self.f(s.min, 6))  max \(Self.f(s.max, 6))  mean \(Self.f(s.mean, 6))")
        }
        l.append("steps: \(steps.isEmpty ? "none" : "")")
        for (p, t) in steps { l.append("  \(Self.f(t)) s  \(p)") }
        for n in notes { l.append("note: \(n)") }
        for w in warnings { l.append("warning: \(w)") }
        return l.joined(separator: "\n")
    }

    /// The device, its clock, and the damage and repairs reading met, for formats that say.
    private var deviceLines: [String] {
        guard let d = device else { return [] }
        func s(_ key: String) -> String? { d[key]?.stringValue }
        func field(_ v: Value, _ key: String) -> Value? {
            if case .object(let o) = v { return o[key] }
            return nil
        }
        var l = ["format: \(s("format") ?? "?")"]
        if let model = s("device") { l.append("device: \(model)" + (s("serial").map { " #\($0)" } ?? "")) }
        if let zone = s("timeZone") { l.append("device clock: \(zone)") }
        var rate: [String] = []
        if let nominal = d["nominalRate"]?.doubleValue { rate.append("\(Self.f(nominal, 2)) Hz configured") }
        if let measured = d["measuredRate"]?.doubleValue { rate.append("\(Self.f(measured, 3)) Hz measured") }
        if !rate.isEmpty { l.append("sample rate: " + rate.joined(separator: ", ")) }
        if let start = s("start") { l.append("start: \(start)") }
        if let end = s("end") { l.append("end: \(end)") }
        if let units = s("units") { l.append("units: \(units)") }
        if let samples = d["samples"]?.doubleValue { l.append("samples: \(Int(samples))") }
        if let corrupt = d["corruptBlocks"]?.doubleValue { l.append("corrupt blocks skipped: \(Int(corrupt))") }
        if case .array(let gaps)? = d["gaps"] {
            l.append("device gaps: \(gaps.count)")
            for g in gaps.prefix(10) {
                l.append(
                    "  from \(field(g, "start")?.stringValue ?? "?"): \(Self.f(field(g, "seconds")?.doubleValue ?? 0)) s"
                )
            }
            if gaps.count > 10 { l.append("  … \(gaps.count - 10) more") }
        }
        if case .array(let fills)? = d["idleFilled"], !fills.isEmpty {
            l.append("idle-sleep spans filled (idle: true): \(fills.count)")
            for f in fills.prefix(10) {
                l.append("  \(field(f, "start")?.stringValue ?? "?") to \(field(f, "end")?.stringValue ?? "?")")
            }
            if fills.count > 10 { l.append("  … \(fills.count - 10) more") }
        }
        let shown: Set = [
            "path", "format", "device", "serial", "timeZone", "nominalRate", "measuredRate", "start", "end", "units",
            "samples",
            "corruptBlocks", "gaps", "idleFilled",
        ]
        for (key, value) in d.pairs where !shown.contains(key) {
            if let v = value.stringValue { l.append("\(key): \(v)") }
        }
        return l
    }
}
