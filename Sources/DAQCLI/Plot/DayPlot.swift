import DAQCore
import Foundation

/// A multi-day recording drawn one row per day of the device's clock, midnight to midnight, as
/// actigraphy reports show it: the series' per-pixel min and max (the magnitude of a recording,
/// or an epoch metric such as ENMO), so sleep, wear and idle spans stand out at a glance over a
/// week; pixels with non-wear are shaded.
struct DayPlot {
    /// What the rows show, for the subtitle and the legend.
    struct Series {
        /// `magnitude |a|`, `ENMO`.
        var name: String
        /// How the values were made, after the name and unit in the subtitle.
        var detail: String
        /// Whose clock the days are on: `device clock`, `Europe/London clock`.
        var clock: String

        static let magnitude = Series(name: "magnitude |a|", detail: "", clock: "device clock")
    }

    let buckets: Int
    var series = Series.magnitude
    private var offsets: ZoneOffsets
    private var days: [Int: (low: [Double], high: [Double])] = [:]
    /// Pixels of each day that hold a non-wear value.
    private var nonwear: [Int: [Bool]] = [:]

    init(zone: TimeZone, buckets: Int = 1100) {
        self.buckets = buckets
        offsets = ZoneOffsets(zone)
    }

    var dayCount: Int { days.count }

    /// The zone the days are cut in, for times given in UTC.
    var zone: TimeZone { offsets.zone }

    /// Whether any pixel is shaded as non-wear.
    var hasNonwear: Bool { !nonwear.isEmpty }

    mutating func add(_ utc: Double, _ magnitude: Double, nonwear isOff: Bool = false) {
        add(local: utc + offsets.offset(at: utc), magnitude, nonwear: isOff)
    }

    /// Adds a value at a time already on the local clock (seconds since 1970 as if it were UTC).
    mutating func add(local: Double, _ magnitude: Double, nonwear isOff: Bool = false) {
        let day = Int((local / 86_400).rounded(.down))
        let b = min(buckets - 1, max(0, Int((local - Double(day) * 86_400) / 86_400 * Double(buckets))))
        if days[day] == nil {
            days[day] = (Array(repeating: .infinity, count: buckets), Array(repeating: -.infinity, count: buckets))
        }
        if magnitude < days[day]!.low[b] { days[day]!.low[b] = magnitude }
        if magnitude > days[day]!.high[b] { days[day]!.high[b] = magnitude }
        if isOff {
            if nonwear[day] == nil { nonwear[day] = Array(repeating: false, count: buckets) }
            nonwear[day]![b] = true
        }
    }

    /// The runs of shaded pixels of `day`, as `(first, count)`.
    func nonwearRuns(_ day: Int) -> [(Int, Int)] {
        guard let shaded = nonwear[day] else { return [] }
        var runs: [(Int, Int)] = []
        var b = 0
        while b < buckets {
            guard shaded[b] else {
                b += 1
                continue
            }
            let first = b
            while b < buckets && shaded[b] { b += 1 }
            runs.append((first, b - first))
        }
        return runs
    }

    /// An SVG a browser shows as is, titled `title`: a row per day with the hours on a grid,
    /// a vertical scale in `units` shared by every day (ticks on each row), and a legend.
    func svg(title: String, units: String?) -> String {
        let named = series.name + (units.map { " (\($0))" } ?? "")
        let left = 150.0
        let right = 16.0
        let top = 56.0
        let row = 64.0
        let plotWidth = Double(buckets)
        let width = left + plotWidth + right
        let ordered = days.keys.sorted()
        let bottom = top + row * Double(ordered.count)
        var lo = days.values.flatMap { $0.low }.filter(\.isFinite).min() ?? 0
        var hi = days.values.flatMap { $0.high }.filter(\.isFinite).max() ?? 1
        if hi <= lo { (lo, hi) = (lo - 0.5, hi + 0.5) }
        var c = SVGCanvas(width: width, height: bottom + 66)
        c.text(title, x: 8, y: 20, size: 14, weight: "bold")
        c.text(
            "\(named)\(series.detail), one row per day of the \(series.clock), midnight to midnight; "
                + "per-pixel minimum and maximum\(hasNonwear ? "; non-wear shaded" : ""); every row has the scale on its left",
            x: 8, y: 38, fill: "#555")
        let dayFormat = DateFormatter()
        dayFormat.locale = Locale(identifier: "en_US_POSIX")
        dayFormat.timeZone = TimeZone(identifier: "UTC")
        dayFormat.dateFormat = "yyyy-MM-dd EEE"
        let ticks = SVGCanvas.ticks(lo, hi, count: 2)
        let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
        for (r, day) in ordered.enumerated() {
            let y0 = top + row * Double(r)
            func y(_ v: Double) -> Double { y0 + row - 6 - (v - lo) / (hi - lo) * (row - 14) }
            c.text(dayFormat.string(from: Date(timeIntervalSince1970: Double(day) * 86_400)), x: 8, y: y0 + row / 2 + 4)
            for (first, count) in nonwearRuns(day) {
                c.rect(left + Double(first), y0 + 2, Double(count), row - 4, fill: Self.nonwearFill)
            }
            for v in ticks {
                c.line(left, y(v), left + plotWidth, y(v), stroke: "#ececec")
                c.text(SVGCanvas.label(v, step: step), x: left - 4, y: y(v) + 4, anchor: "end", size: 9, fill: "#777")
            }
            var points: [(Double, Double)] = []
            for b in 0..<buckets where days[day]!.low[b].isFinite {
                points.append((left + Double(b) + 0.5, y(days[day]!.low[b])))
                points.append((left + Double(b) + 0.5, y(days[day]!.high[b])))
            }
            c.polyline(points, stroke: "#444")
            c.line(left, y0 + row, left + plotWidth, y0 + row, stroke: "#999")
        }
        for hour in stride(from: 0, through: 24, by: 3) {
            let x = left + plotWidth * Double(hour) / 24
            c.line(x, top, x, bottom, stroke: "#d8d8d8")
            let anchor = hour == 0 ? "start" : hour == 24 ? "end" : "middle"
            c.text("\(hour):00", x: x, y: bottom + 15, anchor: anchor, fill: "#555")
        }
        c.text("time of day (\(series.clock), h)", x: left + plotWidth / 2, y: bottom + 32, anchor: "middle")
        var legend = [(name: named, color: "#444"), (name: "no data: blank", color: "#ffffff")]
        if hasNonwear { legend.append((name: "non-wear (shaded)", color: Self.nonwearFill)) }
        c.legend(legend, x: left, y: bottom + 54)
        return c.svg
    }

    static let nonwearFill = "#f6d5c8"
}
