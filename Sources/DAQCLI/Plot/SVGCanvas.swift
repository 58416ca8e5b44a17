import Foundation

/// The pieces every `daq inspect --plot` SVG shares: nice axis ticks, text sized so it stays
/// inside the canvas and its slot, and escaping.
///
/// Text width is estimated (0.6 em per character of a sans-serif face, a little over the real
/// average) because the SVG is written without a font engine; labels are cut to fit by it.
struct SVGCanvas {
    let width: Double
    let height: Double
    private(set) var elements: [String] = []

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
        elements = [
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
                + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"sans-serif\" font-size=\"11\">",
            "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>",
        ]
    }

    /// How wide `text` is at `size` px, estimated.
    static func textWidth(_ text: String, size: Double = 11) -> Double { Double(text.count) * size * 0.6 }

    /// `text` cut with `…` to fit `width` px at `size`; `nil` when not even two characters fit.
    static func fit(_ text: String, width: Double, size: Double = 11) -> String? {
        if textWidth(text, size: size) <= width { return text }
        let chars = Int(width / (size * 0.6)) - 1
        return chars >= 2 ? String(text.prefix(chars)) + "…" : nil
    }

    /// Round tick values covering `lo...hi`: steps of 1, 2 or 5 × 10ⁿ, about `count` of them.
    static func ticks(_ lo: Double, _ hi: Double, count: Int = 5) -> [Double] {
        guard hi > lo, lo.isFinite, hi.isFinite else { return [lo] }
        let raw = (hi - lo) / Double(max(count, 1))
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let steps = [0.1, 0.2, 0.5, 1, 2, 5, 10].map { $0 * magnitude }
        var index = steps.firstIndex { $0 >= raw } ?? steps.count - 1
        while true {
            let step = steps[index]
            var ticks: [Double] = []
            var t = (lo / step).rounded(.up) * step
            while t <= hi + step * 1e-9 {
                ticks.append(abs(t) < step * 1e-9 ? 0 : t)
                t += step
            }
            // A scale needs at least three labelled values to be read; a finer step gives them.
            if ticks.count >= min(3, count) || index == 0 { return ticks }
            index -= 1
        }
    }

    /// A tick's text: as many decimals as the step between ticks needs.
    static func label(_ value: Double, step: Double) -> String {
        let decimals = step >= 1 || step <= 0 ? 0 : min(6, Int((-log10(step)).rounded(.up)))
        return String(format: "%.\(decimals)f", value)
    }

    static func escape(_ s: String) -> String {
        s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }

    static func f(_ v: Double) -> String { String(format: "%.1f", v) }

    /// Writes `text` (escaped) at `x`, `y`; `anchor` start, middle or end.
    mutating func text(
        _ text: String, x: Double, y: Double, anchor: String = "start", size: Double = 11, fill: String = "#222",
        weight: String? = nil
    ) {
        var attributes = "x=\"\(Self.f(x))\" y=\"\(Self.f(y))\""
        if anchor != "start" { attributes += " text-anchor=\"\(anchor)\"" }
        if size != 11 { attributes += " font-size=\"\(Self.f(size))\"" }
        if let weight { attributes += " font-weight=\"\(weight)\"" }
        elements.append("<text \(attributes) fill=\"\(fill)\">\(Self.escape(text))</text>")
    }

    mutating func line(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, stroke: String, width: Double = 1) {
        elements.append(
            "<line x1=\"\(Self.f(x1))\" y1=\"\(Self.f(y1))\" x2=\"\(Self.f(x2))\" y2=\"\(Self.f(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(Self.f(width))\"/>"
        )
    }

    mutating func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double, fill: String, stroke: String? = nil) {
        let outline = stroke.map { " stroke=\"\($0)\"" } ?? ""
        elements.append(
            "<rect x=\"\(Self.f(x))\" y=\"\(Self.f(y))\" width=\"\(Self.f(max(0, w)))\" height=\"\(Self.f(max(0, h)))\" fill=\"\(fill)\"\(outline)/>"
        )
    }

    mutating func polyline(_ points: [(Double, Double)], stroke: String) {
        let list = points.map { "\(Self.f($0.0)),\(Self.f($0.1))" }.joined(separator: " ")
        elements.append("<polyline fill=\"none\" stroke=\"\(stroke)\" stroke-width=\"1\" points=\"\(list)\"/>")
    }

    /// A legend row at `y`: a swatch and a name per entry, left to right from `x`.
    mutating func legend(_ entries: [(name: String, color: String)], x: Double, y: Double) {
        var at = x
        for (name, color) in entries {
            rect(at, y - 9, 14, 10, fill: color, stroke: "#999")
            text(name, x: at + 18, y: y)
            at += 18 + Self.textWidth(name) + 16
        }
    }

    var svg: String { (elements + ["</svg>"]).joined(separator: "\n") + "\n" }
}

/// Seconds as a plot's time axis shows them: a unit that keeps the numbers short.
enum TimeAxis {
    /// The unit for a span of `seconds`, and how many seconds it holds.
    static func unit(for seconds: Double) -> (name: String, seconds: Double) {
        seconds >= 7_200 ? ("h", 3_600) : seconds >= 120 ? ("min", 60) : ("s", 1)
    }

    /// `seconds` as `1 h 02 min`, `3.5 s` or `2 d 4 h`.
    static func span(_ seconds: Double) -> String {
        if seconds >= 86_400 {
            let rest = seconds.truncatingRemainder(dividingBy: 86_400)
            return
                "\(Int(seconds / 86_400)) d \(Int(rest / 3_600)) h \(Int(rest.truncatingRemainder(dividingBy: 3_600) / 60)) min"
        }
        if seconds >= 3_600 {
            return String(
                format: "%d h %02d min", Int(seconds / 3_600), Int(seconds.truncatingRemainder(dividingBy: 3_600) / 60))
        }
        if seconds >= 120 {
            return String(format: "%d min %02d s", Int(seconds / 60), Int(seconds.truncatingRemainder(dividingBy: 60)))
        }
        return String(format: "%.1f s", seconds)
    }
}
