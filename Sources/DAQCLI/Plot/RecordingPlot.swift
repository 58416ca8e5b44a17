import DAQCore
import Foundation

extension RecordingReport {
    /// The title's second part: the device and the time the recording covers.
    var plotTitle: String {
        var parts = [(path as NSString).lastPathComponent]
        if let model = device?["device"]?.stringValue {
            parts.append(model + (device?["serial"]?.stringValue.map { " #\($0)" } ?? ""))
        }
        let duration = (last ?? 0) - (first ?? 0)
        if let start = device?["start"]?.stringValue, let end = device?["end"]?.stringValue {
            parts.append("\(start) to \(end) (\(TimeAxis.span(duration)))")
        } else if let a = firstTimestamp, let b = lastTimestamp, a > 315_532_800 {
            parts.append("\(ISODate.string(a)) to \(ISODate.string(b)) (\(TimeAxis.span(duration)))")
        } else {
            parts.append(TimeAxis.span(duration))
        }
        return parts.joined(separator: " — ")
    }

    /// The usual spacing of samples: the median period, which a gap does not stretch as it
    /// does the mean (a 1 s gap in a minute at 50 Hz would otherwise read as 49 Hz).
    var typicalPeriod: Double? {
        if let m = medianPeriod, m > 0 { return m }
        return period.count > 0 && period.mean > 0 ? period.mean : nil
    }

    /// The unit of the axes' values, as the recording's stream declares it; `nil` when the
    /// recording does not say (a CSV without units in its header): the plot then names none.
    var plotUnits: String? { stream?.unit(of: "x") }

    /// An SVG a browser shows as is: one panel per series with its axis, unit and grid, step
    /// intervals shaded with labels cut to fit, a legend; a recording that spans days, one row
    /// per day instead.
    func svg() -> String {
        if let days { return days.svg(title: plotTitle, units: plotUnits) }
        let width = 1200.0
        let panel = 140.0
        let left = 64.0
        let right = 16.0
        let top = 66.0
        let names = ["x", "y", "z", "magnitude"]
        let colors = ["#d62728", "#2ca02c", "#1f77b4", "#444444"]
        let bottom = top + panel * 4
        var c = SVGCanvas(width: width, height: bottom + 70)
        c.text(plotTitle, x: 8, y: 20, size: 14, weight: "bold")
        var subtitle = "\(rows) rows"
        if let typical = typicalPeriod { subtitle += String(format: ", %.2f Hz", 1 / typical) }
        subtitle += "; per-pixel minimum and maximum of each series, so no spike is lost"
        c.text(subtitle, x: 8, y: 38, fill: "#555")
        let start = first ?? 0
        let duration = max((last ?? 0) - start, 1e-9)
        let plotWidth = width - left - right
        func x(_ t: Double) -> Double { left + (t - start) / duration * plotWidth }
        // Steps: shaded intervals, labels in a band above the panels, cut to their interval.
        let shades = ["#f0f0f0", "#e3edf8"]
        for (i, (p, t)) in steps.enumerated() {
            let end = i + 1 < steps.count ? steps[i + 1].1 : (last ?? t)
            let x0 = max(left, x(t))
            let x1 = min(width - right, x(end))
            c.rect(x0, top - 16, x1 - x0, panel * 4 + 16, fill: shades[i % 2])
            if let label = SVGCanvas.fit(p, width: x1 - x0 - 6) { c.text(label, x: x0 + 3, y: top - 4, fill: "#444") }
        }
        let unit = TimeAxis.unit(for: duration)
        let timeTicks = SVGCanvas.ticks(0, duration / unit.seconds, count: 10)
        let timeStep = timeTicks.count > 1 ? timeTicks[1] - timeTicks[0] : 1
        for t in timeTicks {
            let px = x(start + t * unit.seconds)
            c.line(px, top, px, bottom, stroke: "#d8d8d8")
            c.text(
                SVGCanvas.label(t, step: timeStep), x: px, y: bottom + 15, anchor: t == 0 ? "start" : "middle",
                fill: "#555")
        }
        c.text("time since the first sample (\(unit.name))", x: left + plotWidth / 2, y: bottom + 32, anchor: "middle")
        if let s = series, s.buckets > 0 {
            for k in 0..<4 {
                let y0 = top + panel * Double(k)
                var lo = s.low[k].filter(\.isFinite).min() ?? 0
                var hi = s.high[k].filter(\.isFinite).max() ?? 1
                if hi <= lo { (lo, hi) = (lo - 0.5, hi + 0.5) }
                func y(_ v: Double) -> Double { y0 + panel - 8 - (v - lo) / (hi - lo) * (panel - 28) }
                let ticks = SVGCanvas.ticks(lo, hi, count: 4)
                let step = ticks.count > 1 ? ticks[1] - ticks[0] : 1
                for v in ticks {
                    c.line(left, y(v), width - right, y(v), stroke: "#e4e4e4")
                    c.text(SVGCanvas.label(v, step: step), x: left - 4, y: y(v) + 4, anchor: "end", fill: "#555")
                }
                // Pixel columns without samples for longer than twice the usual spacing are a
                // gap: the line stops there and starts again after it, rather than drawing a level
                // the recording never had. (Shorter runs of empty columns are a zoom past the rate.)
                let bucketSeconds = duration / Double(s.buckets)
                let typical = typicalPeriod ?? bucketSeconds
                var points: [(Double, Double)] = []
                var empty = 0
                for b in 0..<s.buckets {
                    guard s.low[k][b].isFinite else {
                        empty += 1
                        continue
                    }
                    if !points.isEmpty && Double(empty) * bucketSeconds > 2 * typical {
                        c.polyline(points, stroke: colors[k])
                        points.removeAll(keepingCapacity: true)
                    }
                    empty = 0
                    let px = left + (Double(b) + 0.5) / Double(s.buckets) * plotWidth
                    points.append((px, y(s.low[k][b])))
                    points.append((px, y(s.high[k][b])))
                }
                if !points.isEmpty { c.polyline(points, stroke: colors[k]) }
                let label = names[k] + (plotUnits.map { " (\($0))" } ?? "")
                c.rect(left, y0 + 4, SVGCanvas.textWidth(label) + 8, 15, fill: "white")
                c.text(label, x: left + 4, y: y0 + 15, fill: colors[k], weight: "bold")
                c.line(left, y0 + panel, width - right, y0 + panel, stroke: "#999")
            }
        }
        c.line(left, top, left, bottom, stroke: "#999")
        var legend = zip(names, colors).map { (name: $0 == "magnitude" ? "magnitude |a|" : $0, color: $1) }
        if !steps.isEmpty { legend.append((name: "step intervals (shaded)", color: shades[1])) }
        c.legend(legend, x: left, y: bottom + 56)
        return c.svg
    }
}
