import DAQCore
import Foundation

/// A multi-day recording drawn one row per day of the device's clock, midnight to midnight, as
/// actigraphy reports show it: the magnitude's per-pixel min and max, so sleep, wear and idle
/// spans stand out at a glance over a week.
struct DayPlot {
    let buckets: Int
    private var offsets: ZoneOffsets
    private var days: [Int: (low: [Double], high: [Double])] = [:]

    init(zone: TimeZone, buckets: Int = 1100) {
        self.buckets = buckets
        offsets = ZoneOffsets(zone)
    }

    var dayCount: Int { days.count }

    mutating func add(_ utc: Double, _ magnitude: Double) {
        let local = utc + offsets.offset(at: utc)
        let day = Int((local / 86_400).rounded(.down))
        let b = min(buckets - 1, max(0, Int((local - Double(day) * 86_400) / 86_400 * Double(buckets))))
        if days[day] == nil {
            days[day] = (Array(repeating: .infinity, count: buckets), Array(repeating: -.infinity, count: buckets))
        }
        if magnitude < days[day]!.low[b] { days[day]!.low[b] = magnitude }
        if magnitude > days[day]!.high[b] { days[day]!.high[b] = magnitude }
    }

    /// An SVG a browser shows as is; the vertical scale is shared by every day.
    func svg(title: String) -> String {
        let left = 110.0, top = 30.0, row = 60.0, plotWidth = Double(buckets)
        let width = left + plotWidth + 20
        let ordered = days.keys.sorted()
        let height = top + row * Double(ordered.count) + 30
        let lo = days.values.flatMap { $0.low }.filter(\.isFinite).min() ?? 0
        let hi = days.values.flatMap { $0.high }.filter(\.isFinite).max() ?? 1
        let span = hi > lo ? hi - lo : 1
        var out = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" font-family=\"sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
            "<text x=\"\(left)\" y=\"18\" font-size=\"13\">\(RecordingReport.escape(title)) — magnitude, one row per day (device clock), \(RecordingReport.f(lo, 2))–\(RecordingReport.f(hi, 2))</text>",
        ]
        let dayFormat = DateFormatter()
        dayFormat.locale = Locale(identifier: "en_US_POSIX")
        dayFormat.timeZone = TimeZone(identifier: "UTC")
        dayFormat.dateFormat = "yyyy-MM-dd EEE"
        for (r, day) in ordered.enumerated() {
            let y0 = top + row * Double(r)
            let label = dayFormat.string(from: Date(timeIntervalSince1970: Double(day) * 86_400))
            out.append("<text x=\"4\" y=\"\(RecordingReport.f(y0 + row / 2 + 4, 1))\">\(label)</text>")
            out.append("<line x1=\"\(left)\" x2=\"\(left + plotWidth)\" y1=\"\(y0 + row)\" y2=\"\(y0 + row)\" stroke=\"#ccc\"/>")
            var points: [String] = []
            for b in 0..<buckets where days[day]!.low[b].isFinite {
                let x = RecordingReport.f(left + Double(b) + 0.5, 1)
                for v in [days[day]!.low[b], days[day]!.high[b]] {
                    points.append("\(x),\(RecordingReport.f(y0 + row - 4 - (v - lo) / span * (row - 10), 1))")
                }
            }
            out.append("<polyline fill=\"none\" stroke=\"#444\" stroke-width=\"1\" points=\"\(points.joined(separator: " "))\"/>")
        }
        for hour in stride(from: 0, through: 24, by: 3) {
            let x = left + plotWidth * Double(hour) / 24
            out.append("<line x1=\"\(RecordingReport.f(x, 1))\" x2=\"\(RecordingReport.f(x, 1))\" y1=\"\(top)\" y2=\"\(RecordingReport.f(height - 30, 1))\" stroke=\"#eee\"/>")
            out.append("<text x=\"\(RecordingReport.f(x, 1))\" y=\"\(RecordingReport.f(height - 14, 1))\" text-anchor=\"middle\" fill=\"#555\">\(hour):00</text>")
        }
        out.append("</svg>")
        return out.joined(separator: "\n") + "\n"
    }
}
