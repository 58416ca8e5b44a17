import DAQTesting
import Foundation
import Testing

@testable import DAQCLI

/// `daq inspect --plot` SVGs are rendered by a real SVG renderer (librsvg's rsvg-convert), and
/// every text element lies inside the canvas with step labels that do not run into each other.
@Suite("daq inspect plots", .timeLimit(.minutes(20)))
struct PlotRenderingTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    struct Text {
        var x, y, size: Double
        var anchor: String
        var content: String
        /// Left, right, top and bottom, by the plot's own estimate of text width.
        var box: (Double, Double, Double, Double) {
            let w = SVGCanvas.textWidth(content, size: size)
            let left = anchor == "middle" ? x - w / 2 : anchor == "end" ? x - w : x
            return (left, left + w, y - size, y + size * 0.25)
        }
    }

    static func texts(_ svg: String) throws -> [Text] {
        let pattern = try NSRegularExpression(pattern: #"<text ([^>]*)>([^<]*)</text>"#)
        func attribute(_ name: String, _ attributes: String) -> String? {
            guard let r = attributes.range(of: "\(name)=\"") else { return nil }
            return String(attributes[r.upperBound...].prefix { $0 != "\"" })
        }
        return pattern.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { m in
            let attributes = String(svg[Range(m.range(at: 1), in: svg)!])
            let content = String(svg[Range(m.range(at: 2), in: svg)!]).replacingOccurrences(of: "&amp;", with: "&")
                .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            return Text(
                x: Double(attribute("x", attributes) ?? "") ?? .nan,
                y: Double(attribute("y", attributes) ?? "") ?? .nan,
                size: Double(attribute("font-size", attributes) ?? "11") ?? 11,
                anchor: attribute("text-anchor", attributes) ?? "start",
                content: content)
        }
    }

    static func size(_ svg: String) -> (Double, Double) {
        func value(_ name: String) -> Double {
            let r = svg.range(of: "\(name)=\"")!
            return Double(svg[r.upperBound...].prefix { $0 != "\"" })!
        }
        return (value("width"), value("height"))
    }

    /// Renders `svg` to PNG with rsvg-convert and returns the PNG's width and height.
    static func render(_ svg: String) throws -> (Int, Int) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-plot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("plot.svg")
        let output = dir.appendingPathComponent("plot.png")
        try svg.write(to: input, atomically: true, encoding: .utf8)
        let r = try Process.runToEnd("rsvg-convert", ["-o", output.path, input.path], timeout: 60)
        try #require(
            r.status == 0, "rsvg-convert (librsvg2-bin; scripts/test.sh installs it) failed: \(r.errors)")
        let png = try Data(contentsOf: output)
        try #require(png.starts(with: [0x89, 0x50, 0x4E, 0x47]) && png.count > 24)
        func be32(_ at: Int) -> Int { png[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    static func check(_ svg: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [Text] {
        let (width, height) = size(svg)
        let texts = try texts(svg)
        #expect(!texts.isEmpty, sourceLocation: sourceLocation)
        for t in texts {
            let (l, r, top, bottom) = t.box
            #expect(
                l >= 0 && r <= width && top >= 0 && bottom <= height,
                "'\(t.content)' at \(t.x),\(t.y) leaves \(width)×\(height)", sourceLocation: sourceLocation)
        }
        let png = try render(svg)
        #expect(png == (Int(width), Int(height)), sourceLocation: sourceLocation)
        return texts
    }

    /// A phone app's CSV whose header says m/s² is plotted in m/s², as its stream declares.
    @Test func aPhoneRecordingInMetresPerSecondSquaredIsLabelledSo() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-plot-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var text = "time,x (m/s^2),y (m/s^2),z (m/s^2)\n"
        for i in 0..<500 { text += "\(1_764_324_000_000 + i * 20),0.1,0.2,\(9.8 + Double(i % 5) / 10)\n" }
        try text.write(toFile: dir + "/phone.csv", atomically: true, encoding: .utf8)
        let report = try RecordingInspector(config: "path: \"\(dir)/phone.csv\"", path: dir + "/phone.csv")
            .inspect(plotWidth: 800)
        let contents = try Self.check(report.svg()).map(\.content)
        for name in ["x (m/s²)", "y (m/s²)", "z (m/s²)", "magnitude (m/s²)"] {
            #expect(contents.contains(name), "\(name) missing: \(contents)")
        }
        #expect(!contents.contains { $0.hasSuffix("(g)") }, "\(contents)")
    }

    /// A recording with a 1 s gap draws each series as two lines with nothing between them,
    /// not a straight line across the second it has no samples for, and states its real rate.
    @Test func aGapIsDrawnAsAGap() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-plot-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var text = "time,x,y,z\n"
        for i in 0..<400 where !(150..<250).contains(i) { text += "\(Double(i) / 100),0.1,0.2,\(Double(i % 7) / 10)\n" }
        try text.write(toFile: dir + "/gap.csv", atomically: true, encoding: .utf8)
        let report = try RecordingInspector(config: "path: \"\(dir)/gap.csv\"", path: dir + "/gap.csv")
            .inspect(plotWidth: 800)
        let svg = report.svg()
        let texts = try Self.check(svg)
        // The rate is the recording's, 100 Hz; the gap does not pull it down (the mean period
        // across it would say 74.94 Hz).
        #expect(texts.contains { $0.content.hasPrefix("300 rows, 100.00 Hz;") }, "\(texts.map(\.content))")
        let pattern = try NSRegularExpression(pattern: #"<polyline [^>]*points="([^"]*)""#)
        let lines = pattern.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { m in
            svg[Range(m.range(at: 1), in: svg)!].split(separator: " ").compactMap { Double($0.prefix { $0 != "," }) }
        }
        #expect(lines.count == 8, "\(lines.count) lines for 4 series")
        // The samples stop at 1.49 s and start again at 2.5 s of 3.99: no line crosses 2 s.
        let (width, _) = Self.size(svg)
        let middle = 64 + (width - 64 - 16) * 2.0 / 3.99
        for xs in lines {
            #expect(!(xs.contains { $0 < middle } && xs.contains { $0 > middle }), "a line crosses the gap")
        }
    }

    @Test func walkPlotHasAxesUnitsGridLegendAndStepsThatFit() throws {
        let path = Self.repository.appendingPathComponent("recordings/walk.csv").path
        let report = try RecordingInspector(config: "path: \"\(path)\"", path: path).inspect(plotWidth: 1200)
        let svg = report.svg()
        let texts = try Self.check(svg)
        let contents = texts.map(\.content)
        #expect(contents.first == "walk.csv — 60.0 s")
        // walk.csv's header names no unit, so the plot names none rather than guess g.
        for name in ["x", "y", "z", "magnitude", "time since the first sample (s)", "magnitude |a|"] {
            #expect(contents.contains(name), "\(name) missing: \(contents)")
        }
        #expect(svg.components(separatedBy: "stroke=\"#e4e4e4\"").count > 12, "no value grid")
        #expect(contents.contains("50") && contents.contains("0.1"), "no tick labels: \(contents)")
        // Step labels sit in one band; each fits its interval, so none overlaps the next.
        let steps = texts.filter { $0.y == 62 }.sorted { $0.x < $1.x }
        #expect(steps.count == 5, "\(steps.map(\.content))")
        for (a, b) in zip(steps, steps.dropFirst()) {
            #expect(a.box.1 <= b.box.0, "'\(a.content)' runs into '\(b.content)'")
        }
        #expect(steps.contains { $0.content == "walk/outbound" } && steps.contains { $0.content.hasSuffix("…") })
    }

    @Test func devicePlotTitleNamesTheDeviceAndTimeSpan() throws {
        let path = Self.repository.appendingPathComponent("recordings/wrist.gt3x").path
        let report = try RecordingInspector(config: "path: \"\(path)\"", path: path).inspect(plotWidth: 1200)
        let texts = try Self.check(report.svg())
        let title = try #require(texts.first?.content)
        #expect(title.hasPrefix("wrist.gt3x — wGT3XBT #"), "\(title)")
        #expect(title.contains("2026-03-15T09:30:00.000+01:00 to 2026-03-15T09:32:59.967+01:00"), "\(title)")
        #expect(texts.contains { $0.content == "time since the first sample (min)" })
    }

    @Test func dayRowsHaveHoursScaleAndLegend() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-days-\(UUID().uuidString).csv")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let start = 1_700_006_400  // 2023-11-15T00:00:00Z
        var rows = ["t,x,y,z"]
        for i in 0..<(3 * 1440 + 60) { rows.append("\(start + i * 60),0,0,\(i % 1440 < 480 ? 1.0 : 1.5)") }
        try (rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let report = try RecordingInspector(config: "path: \"\(path)\"\ntime_unit: s", path: path).inspect(
            plotWidth: 1200)
        let texts = try Self.check(report.svg())
        let contents = texts.map(\.content)
        let title = contents.first ?? ""
        #expect(
            title.hasPrefix("daq-days-")
                && title.hasSuffix(
                    ".csv — 2023-11-15T00:00:00.000+00:00 to 2023-11-18T00:59:00.000+00:00 (3 d 0 h 59 min)"),
            "\(title)")
        // A CSV of t,x,y,z states no unit: the plot names none.
        for name in ["0:00", "24:00", "time of day (device clock, h)", "magnitude |a|", "2023-11-18 Sat", "1.5"] {
            #expect(contents.contains(name), "\(name) missing: \(contents)")
        }
    }
}
