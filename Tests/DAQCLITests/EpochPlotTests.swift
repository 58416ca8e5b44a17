import Foundation
import Testing

@testable import DAQCLI

/// `daq inspect --plot` on an epoch table: the metric one row per day, non-wear shaded.
extension PlotRenderingTests {
    /// Three UTC days of one-minute epochs as a `file` sink writes them, worn but for 13:00 to
    /// 15:00 on the second day.
    static func epochTable() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-epochs-\(UUID().uuidString).csv")
            .path
        let start = 1_767_571_200  // 2026-01-05T00:00:00Z
        var rows = ["uptime,timestamp,stepPath,kind,enmo_mg,samples,wear,partial"]
        for i in 0..<(3 * 1440) {
            let minute = i % 1440
            let off = i / 1440 == 1 && minute >= 780 && minute < 900
            let mg = off ? 0 : minute < 420 ? 3.0 : 40 + Double(minute % 90)
            rows.append("\(i * 60),\(start + i * 60),,data,\(mg),6000,\(off ? 0 : 1),false")
        }
        try (rows.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func anEpochTableIsDrawnOneRowPerDayWithNonWearShaded() throws {
        let path = try Self.epochTable()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let metric = try #require(EpochTable.metric(inHeaderOf: path), "the header names enmo_mg")
        let table = try EpochTable(path: path, metric: metric, zone: TimeZone(identifier: "UTC")!)
        #expect(table.epochs == 4320 && table.nonwear == 120 && table.days.dayCount == 3)
        #expect(table.text.contains("epochs: 4320, non-wear: 120"))
        let svg = table.svg()
        let contents = try Self.check(svg).map(\.content)
        for name in ["ENMO (mg)", "non-wear (shaded)", "2026-01-06 Tue", "time of day (local clock, h)", "12:00"] {
            #expect(contents.contains(name), "\(name) missing: \(contents)")
        }
        // One shaded run: the second row (64 px down), 13:00 to 15:00 of 1100 pixels a day.
        let shaded = try NSRegularExpression(
            pattern: ##"<rect x="([0-9.]+)" y="([0-9.]+)" width="([0-9.]+)"[^>]*fill="#f6d5c8""##)
        let rects = shaded.matches(in: svg, range: NSRange(svg.startIndex..., in: svg)).map { m in
            (1...3).map { Double(svg[Range(m.range(at: $0), in: svg)!])! }
        }
        let inRows = rects.filter { $0[1] < 250 }  // not the legend's swatch
        try #require(inRows.count == 1, "\(rects)")
        #expect(abs(inRows[0][0] - (150 + 595)) <= 1 && abs(inRows[0][2] - 92) <= 1.5, "\(inRows[0])")
        #expect(abs(inRows[0][1] - (56 + 64 + 2)) <= 0.5)
    }

    /// A logger's `timestampDate` places each epoch on the clock it was written on: across
    /// London's autumn switch, 00:30 BST and 01:30 GMT are one day's rows.
    @Test func anEpochTableTakesTheOffsetOfItsDates() throws {
        #expect(EpochTable.instant("2026-10-25T01:30:00.000+01:00").map { [$0.0, $0.1] } == [1_792_888_200, 3_600])
        #expect(EpochTable.instant("2026-10-25T01:30:00Z").map { [$0.0, $0.1] } == [1_792_891_800, 0])
        #expect(EpochTable.instant("25/10/2026 01:30") == nil)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-epochs-\(UUID().uuidString).csv")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let text = """
            uptime,timestamp,stepPath,timestampDate,mad_mg,wear
            0,0,,2026-10-24T23:59:00.000+01:00,5,1
            60,60,,2026-10-25T00:30:00.000+01:00,6,1
            120,120,,2026-10-25T01:30:00.000+00:00,7,0
            180,180,,,,
            """
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let table = try EpochTable(
            path: path, metric: #require(EpochTable.metric(inHeaderOf: path)), zone: TimeZone(identifier: "UTC")!)
        #expect(table.metric == "mad_mg" && table.epochs == 3 && table.nonwear == 1)
        #expect(table.days.dayCount == 2, "the 24th, then the 25th by each row's own offset")
    }

    @Test func anEpochRowWithoutAStartNamesItsLine() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-epochs-\(UUID().uuidString).csv")
            .path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try "timestamp,enmo_mg\n1767571200,3\n12,4\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: EpochTableError.self) {
            _ = try EpochTable(path: path, metric: "enmo_mg", zone: TimeZone(identifier: "UTC")!)
        }
        #expect(
            error?.description.hasSuffix(
                ":3: no start: an epoch row needs timestampDate (ISO 8601) or timestamp in seconds since 1970") == true)
    }

    /// `daq inspect EPOCHS.csv --plot F.svg --time-zone Z`: times without an offset are placed on
    /// Z's clock, so New York's rows start on the Sunday evening before the first UTC midnight.
    @Test func inspectPlotsAnEpochTableOnTheGivenZone() throws {
        let path = try Self.epochTable()
        let svgPath = path + ".svg"
        defer { for p in [path, svgPath] { try? FileManager.default.removeItem(atPath: p) } }
        var command = try DAQCommand.Inspect.parse([path, "--plot", svgPath, "--time-zone", "America/New_York"])
        try command.run()
        let svg = try String(contentsOfFile: svgPath, encoding: .utf8)
        let contents = try Self.check(svg).map(\.content)
        #expect(contents.contains("2026-01-04 Sun") && contents.contains("2026-01-07 Wed"), "\(contents)")
        #expect(contents.contains("non-wear (shaded)"))
        var bad = try DAQCommand.Inspect.parse([path, "--time-zone", "Mars/Olympus"])
        #expect(throws: (any Error).self) { try bad.run() }
    }
}
