import DAQTesting
import Foundation
import Testing

@testable import DAQCLI

/// `daq inspect` on device files: what the file says about the device and what reading it found.
@Suite("daq inspect, device files", .timeLimit(.minutes(20)))
struct InspectDeviceTests {
    static func temp(_ name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-inspect-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir.appendingPathComponent(name).path
    }

    @Test func reportsTheDeviceTheClockAndTheRepairsOfAGT3X() throws {
        // Named .dat: the format is found by content.
        let path = Self.temp("recording.dat")
        var w = GT3XWriter()
        w.rate = 30
        w.seconds = 60
        w.start = 1_700_000_000  // 2023-11-14T22:13:20Z, local 23:13:20 at +01:00
        w.utcOffset = 3600
        w.idleSleep = [10..<15]
        w.corrupt = [30]
        try w.write(to: path)
        let r = try RecordingInspector(config: "path: \"\(path)\"\non_bad_row: skip", path: path).inspect(plotWidth: 0)
        let text = r.text
        #expect(text.contains("format: gt3x"))
        #expect(text.contains("device: wGT3XBT #MOS2E12345678"))
        #expect(text.contains("device clock: +01:00"))
        #expect(text.contains("sample rate: 30.00 Hz configured, "))
        #expect(text.contains("start: 2023-11-14T23:13:20.000+01:00"))
        #expect(text.contains("end: 2023-11-14T23:14:19.967+01:00"))
        #expect(text.contains("corrupt blocks skipped: 1"))
        #expect(text.contains("idle-sleep spans filled (idle: true): 1"))
        #expect(text.contains("samples: \(59 * 30)"))
    }

    @Test func drawsARecordingThatSpansDaysOneRowPerDay() throws {
        // Three days and a bit, one sample a minute, on an absolute clock (seconds since 1970).
        let path = Self.temp("week.csv")
        let start = 1_700_006_400.0  // 2023-11-15T00:00:00Z
        var rows = ["t,x,y,z"]
        for i in 0..<(3 * 1440 + 60) { rows.append("\(Int(start) + i * 60),0,0,\(i % 1440 < 480 ? 1.0 : 1.5)") }
        try (rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let r = try RecordingInspector(config: "path: \"\(path)\"\ntime_unit: s", path: path).inspect(plotWidth: 1200)
        #expect(r.spansDays)
        #expect(r.days?.dayCount == 4)
        let svg = r.svg()
        #expect(svg.components(separatedBy: "<polyline").count == 5)
        #expect(svg.contains(">2023-11-15 Wed</text>"))
        #expect(svg.contains(">2023-11-18 Sat</text>"))
    }
}
