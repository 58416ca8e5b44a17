import Foundation
import Testing

@testable import DAQCLI

@Suite("daq inspect", .timeLimit(.minutes(20)))
struct InspectTests {
    static let walk = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recordings/walk.csv").path

    @Test func describesTheShippedWalk() throws {
        let r = try RecordingInspector(config: "path: \"\(Self.walk)\"", path: Self.walk).inspect(plotWidth: 300)
        #expect(r.rows == 6000)
        #expect(abs((r.last ?? 0) - 59.989802) < 1e-9)
        #expect(r.gaps.isEmpty && r.backwards.isEmpty)
        #expect(r.steps.map(\.0) == ["stand/start", "walk/outbound", "walk/turn", "walk/return", "stand/end"])
        #expect(abs(1 / r.period.mean - 100) < 0.5)
        let svg = r.svg()
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\""))
        #expect(svg.components(separatedBy: "<polyline").count == 5)
        #expect(svg.contains(">walk/return</text>"))
        // 2.4 s of 60 is too narrow for its whole name: cut to fit (PlotRenderingTests).
        #expect(svg.contains(">walk…</text>"))
    }

    @Test func findsGapsAndTimestampsGoingBack() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-inspect-\(UUID().uuidString).csv")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var rows = ["t,x,y,z"]
        for i in 0..<100 { rows.append("\(Double(i) / 100),0,0,1") }
        rows.append("1.5,0,0,1")  // a 0.51 s gap
        rows.append("1.49,0,0,1")  // goes back
        try (rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = try RecordingInspector(config: "path: \"\(path)\"", path: path).inspect(plotWidth: 0)
        #expect(r.rows == 102)
        #expect(r.gaps.count == 1)
        #expect(abs((r.gaps.first?.at ?? 0) - 0.99) < 1e-9)
        #expect(r.backwards.count == 1)
        #expect(r.text.contains("gaps longer than twice the median period: 1"))
        #expect(r.warnings.contains { $0.contains(":103: timestamp goes back") })
    }
}
