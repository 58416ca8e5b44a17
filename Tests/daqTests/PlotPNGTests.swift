import DAQTesting
import Foundation
import Testing

/// `daq inspect --plot FILE.png` through the real `daq`: the PNG rsvg-convert renders from the
/// plot's SVG is decoded here and its pixels checked, and without the renderer the error says
/// what to install and nothing is written.
@Suite("daq inspect --plot as PNG", .timeLimit(.minutes(10)))
struct PlotPNGTests {
    /// A phone app's CSV in m/s² (as the issue's `phone.csv`) with no samples from 1.5 to 2.5 s.
    static func recording() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-png-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        var text = "time,x (m/s^2),y (m/s^2),z (m/s^2)\n"
        for i in 0..<400 where !(150..<250).contains(i) {
            text += "\(1_764_324_000_000 + i * 10),\(Double(i % 9) / 4),-1.2,\(9.8 + Double(i % 7) / 5)\n"
        }
        try text.write(toFile: dir + "/phone.csv", atomically: true, encoding: .utf8)
        return dir
    }

    /// A series' pixel: coloured, not the grey, black and white of axes, grid, text and ground.
    static func coloured(_ p: (UInt8, UInt8, UInt8)) -> Bool {
        let values = [Int(p.0), Int(p.1), Int(p.2)]
        return values.max()! - values.min()! > 60
    }

    @Test func thePNGShowsTheSeriesAndLeavesTheGapOpen() throws {
        let dir = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try DAQBinary.run(["inspect", dir + "/phone.csv", "--plot", dir + "/phone.png"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.contains("plot: \(dir)/phone.png"), "\(r.out)")
        let png = try PNGImage(try Data(contentsOf: URL(fileURLWithPath: dir + "/phone.png")))
        #expect(png.width == 1200)
        // The plot's columns that hold a series' colour, below the title and legend band.
        var columns = [Int](repeating: 0, count: png.width)
        for y in (png.height / 5)..<png.height {
            for x in 0..<png.width where Self.coloured(png.rgb(x: x, y: y)) { columns[x] += 1 }
        }
        let drawn = columns.indices.filter { columns[$0] > 0 }
        let first = try #require(drawn.first)
        let last = try #require(drawn.last)
        #expect(last - first > png.width / 2, "the series span \(first)...\(last) of \(png.width) columns")
        // Time runs 0 to 3.99 s from `first` to `last`: nothing is drawn from 1.6 to 2.4 s.
        let span = Double(last - first)
        let gap = (first + Int(span * 1.6 / 3.99))...(first + Int(span * 2.4 / 3.99))
        #expect(gap.allSatisfy { columns[$0] == 0 }, "a series is drawn across the gap")
        #expect(drawn.count > png.width / 3, "only \(drawn.count) columns hold a series")
        // No stray file is left beside it.
        let left = try FileManager.default.contentsOfDirectory(atPath: dir).sorted()
        #expect(left == ["phone.csv", "phone.png"], "\(left)")
    }

    @Test func withoutTheRendererTheErrorSaysWhatToInstall() throws {
        let dir = try Self.recording()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try DAQBinary.run(
            ["inspect", dir + "/phone.csv", "--plot", dir + "/phone.png"], environment: ["PATH": dir])
        #expect(r.status != 0)
        #expect(r.err.contains("rsvg-convert") && r.err.contains("librsvg2-bin"), "\(r.err)")
        #expect(!FileManager.default.fileExists(atPath: dir + "/phone.png"))
        // The SVG needs nothing installed.
        let svg = try DAQBinary.run(
            ["inspect", dir + "/phone.csv", "--plot", dir + "/phone.svg"], environment: ["PATH": dir])
        #expect(svg.status == 0, "\(svg.err)")
        let text = try String(contentsOfFile: dir + "/phone.svg", encoding: .utf8)
        #expect(text.contains("z (m/s²)"))
    }
}
