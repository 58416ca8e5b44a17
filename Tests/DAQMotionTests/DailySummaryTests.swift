import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// `summary.daily` on epochs whose summary can be worked out by hand.
@Suite(.timeLimit(.minutes(20))) struct DailySummaryTests {
    /// 2026-01-05T00:00Z.
    static let monday = 1_767_571_200.0

    /// A UTC day of one-minute epochs: 8 h at 10 mg, 5 h at 500, 7 h at 50, 4 h at 150; then the
    /// first two minutes of the next day.
    static let day =
        minuteEpochs(from: monday, [(480, 10, 1), (300, 500, 1), (420, 50, 1), (240, 150, 1)])
        + minuteEpochs(from: monday + 86_400, [(2, 20, 1)])

    @Test func aDayOfKnownEpochsGivesKnownBandsMeanAndWindows() throws {
        let table = try DailyTableText(csv: try summarise(Self.day))
        #expect(
            table.names == [
                "date", "day_hours", "epochs", "recorded_hours", "wear_hours", "low_wear", "metric", "mean_mg",
                "minutes_below_40", "minutes_40_100", "minutes_100_400", "minutes_400_up", "m5_mg", "m5_start",
                "l5_mg", "l5_start",
            ])
        try #require(table.rows.count == 2, "a row per day, the last one at the end of input")
        let first = table.rows[0]
        #expect(first["date"] == "2026-01-05" && first["day_hours"] == "24" && first["epochs"] == "1440")
        #expect(first["recorded_hours"] == "24.0000" && first["wear_hours"] == "24.0000")
        #expect(first["low_wear"] == "false" && first["metric"] == "enmo_mg")
        // (480 · 10 + 300 · 500 + 420 · 50 + 240 · 150) / 1440 = 147.0833…
        #expect(first["mean_mg"] == "147.083")
        #expect(
            [first["minutes_below_40"], first["minutes_40_100"], first["minutes_100_400"], first["minutes_400_up"]]
                == ["480.00", "420.00", "240.00", "300.00"])
        #expect(first["m5_mg"] == "500.000" && first["m5_start"] == "2026-01-05T08:00:00.000+00:00")
        #expect(first["l5_mg"] == "10.000" && first["l5_start"] == "2026-01-05T00:00:00.000+00:00")
        let second = table.rows[1]
        #expect(second["date"] == "2026-01-06" && second["epochs"] == "2" && second["wear_hours"] == "0.0333")
        #expect(second["low_wear"] == "true" && second["mean_mg"] == "20.000")
        #expect(second["m5_mg"] == "" && second["m5_start"] == "", "two minutes hold no 5 h window")
    }

    /// Non-wear from 06:00 to 07:00 (its epochs at 0 mg): it is in the hours recorded only. M5
    /// cannot start at 06:00 but at 07:00; L5 stays at 00:00, where counting non-wear as 0 mg
    /// would have moved it to 02:00.
    @Test func nonWearIsLeftOutOfMeanBandsAndWindows() throws {
        let epochs = minuteEpochs(
            from: Self.monday, [(360, 10, 1), (60, 0, 0), (300, 300, 1), (720, 50, 1)])
        let row = try #require(try DailyTableText(csv: try summarise(epochs)).rows.first)
        #expect(row["epochs"] == "1440" && row["recorded_hours"] == "24.0000" && row["wear_hours"] == "23.0000")
        // (360 · 10 + 300 · 300 + 720 · 50) / 1380 = 93.913…
        #expect(row["mean_mg"] == "93.913")
        #expect(
            [row["minutes_below_40"], row["minutes_40_100"], row["minutes_100_400"], row["minutes_400_up"]]
                == ["360.00", "720.00", "300.00", "0.00"])
        #expect(row["m5_mg"] == "300.000" && row["m5_start"] == "2026-01-05T07:00:00.000+00:00")
        #expect(row["l5_mg"] == "10.000" && row["l5_start"] == "2026-01-05T00:00:00.000+00:00")
    }

    /// An epoch is worn when at least half its samples were.
    @Test func anEpochIsWornWhenHalfItsSamplesWere() throws {
        let epochs = minuteEpochs(from: Self.monday, [(10, 30, 0.5), (10, 30, 0.49)])
        let row = try #require(try DailyTableText(csv: try summarise(epochs)).rows.first)
        #expect(row["wear_hours"] == "0.1667" && row["minutes_below_40"] == "10.00")
    }

    /// London springs forward on 2026-03-29 (23 h: 00:00 GMT to 00:00 BST) and falls back on
    /// 2026-10-25 (25 h: 00:00 BST to 00:00 GMT). Each is one row with its own length, every
    /// minute of it an epoch, and window starts on the local clock with the offset then.
    @Test func daylightSavingDaysAreTwentyThreeAndTwentyFiveHours() throws {
        let spring = 1_774_742_400.0
        let autumn = 1_792_882_800.0
        // Spring: active from 03:00 BST (02:00Z, 120 min after midnight). Autumn: from the first
        // 01:30 BST (00:30Z, 90 min after midnight), before the hour repeats.
        let epochs =
            minuteEpochs(from: spring, [(120, 20, 1), (300, 200, 1), (960, 20, 1)])
            + minuteEpochs(from: autumn, [(90, 20, 1), (300, 200, 1), (1110, 20, 1)])
        let table = try DailyTableText(csv: try summarise(epochs, config: "time_zone: Europe/London"))
        try #require(table.rows.count == 2)
        let (a, b) = (table.rows[0], table.rows[1])
        #expect(a["date"] == "2026-03-29" && a["day_hours"] == "23" && a["epochs"] == "1380")
        #expect(a["recorded_hours"] == "23.0000" && a["low_wear"] == "false")
        #expect(a["m5_mg"] == "200.000" && a["m5_start"] == "2026-03-29T03:00:00.000+01:00")
        // L5 is the first window clear of the active block: from 07:00Z.
        #expect(a["l5_mg"] == "20.000" && a["l5_start"] == "2026-03-29T08:00:00.000+01:00")
        #expect(b["date"] == "2026-10-25" && b["day_hours"] == "25" && b["epochs"] == "1500")
        #expect(b["recorded_hours"] == "25.0000" && b["wear_hours"] == "25.0000")
        #expect(b["m5_mg"] == "200.000" && b["m5_start"] == "2026-10-25T01:30:00.000+01:00")
        // From 05:30Z, after the repeated hour: 05:30 GMT.
        #expect(b["l5_mg"] == "20.000" && b["l5_start"] == "2026-10-25T05:30:00.000+00:00")
        // All 25 hours are minutes of the one day.
        #expect(b["minutes_below_40"] == "1200.00" && b["minutes_100_400"] == "300.00")
    }

    /// 15 h worn is under the default 16 h; `min_wear_hours: 12` accepts it.
    @Test func aDayWithLittleWearIsFlagged() throws {
        let epochs = minuteEpochs(from: Self.monday, [(900, 60, 1), (540, 0, 0)])
        let flagged = try #require(try DailyTableText(csv: try summarise(epochs)).rows.first)
        #expect(flagged["wear_hours"] == "15.0000" && flagged["low_wear"] == "true")
        let accepted = try #require(
            try DailyTableText(csv: try summarise(epochs, config: "min_wear_hours: 12")).rows.first)
        #expect(accepted["low_wear"] == "false")
    }

    /// `format: json` (or a `.json` path) writes the same rows as objects of an array.
    @Test func jsonHoldsTheSameRowsAsCSV() throws {
        let csv = try DailyTableText(csv: try summarise(Self.day))
        let json = try summarise(Self.day, ext: "json")
        let differences = try jsonDifferences(json, from: csv)
        #expect(differences.isEmpty, "\(differences.prefix(5))")
        let forced = try summarise(Self.day, config: "format: json", ext: "txt")
        #expect(try jsonDifferences(forced, from: csv).isEmpty)
    }

    /// Bands and window are configurable: [100] gives two bands, a 1 h window other extremes.
    @Test func bandsAndWindowAreConfigurable() throws {
        let path = try summarise(Self.day, config: "bands: [100]\nwindow: 1h")
        let table = try DailyTableText(csv: path)
        #expect(table.names.contains("minutes_below_100") && table.names.contains("minutes_100_up"))
        let row = try #require(table.rows.first)
        #expect(row["minutes_below_100"] == "900.00" && row["minutes_100_up"] == "540.00")
        #expect(row["m5_start"] == "2026-01-05T08:00:00.000+00:00" && row["m5_mg"] == "500.000")
    }

    /// An epoch without its value fails with its local time and the field; the table is closed
    /// first with the days so far, the one cut short last, so the JSON still parses.
    @Test(arguments: ["csv", "json"])
    func badInputFailsClearlyAndKeepsTheDaysSoFar(ext: String) throws {
        let path = tempDirectory() + "/daily.\(ext)"
        let h = try SinkHarness(DailySummarySink.self, config: "path: \(path)")
        try h.write(Self.day)
        let bad = [Sample(timestamp: Self.monday + 86_400 + 600, uptime: 0, fields: ["wear": 1.0, "samples": 6000])]
        let error = #expect(throws: (any Error).self) { try h.write(bad) }
        let message = error.map { "\($0)" } ?? ""
        #expect(message.contains("2026-01-06T00:10:00.000+00:00") && message.contains("'enmo_mg'"), "\(message)")
        #expect(message.contains(path), "says where the days so far are: \(message)")
        let rows: Int
        if ext == "json" {
            let array = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [Any]
            rows = array?.count ?? -1
        } else {
            rows = try DailyTableText(csv: path).rows.count
        }
        #expect(rows == 2, "the finished day and the one cut short")
    }

    /// Time that goes back (a looped replay) writes the day so far and starts a new row: no
    /// epoch is merged into a row already written, none is lost, and it is reported.
    @Test func timeGoingBackStartsANewRow() throws {
        let path = tempDirectory() + "/daily.csv"
        let h = try SinkHarness(DailySummarySink.self, config: "path: \(path)")
        try h.write(Array(Self.day[10..<20]))
        try h.write(Array(Self.day[5..<8]) + Array(Self.day[8..<9]))
        try h.finish()
        let rows = try DailyTableText(csv: path).rows
        #expect(rows.map { $0["date"] } == ["2026-01-05", "2026-01-05"])
        #expect(rows.map { $0["epochs"] } == ["10", "4"])
        #expect(
            h.events.notices == [
                "the epoch at 2026-01-05T00:05:00.000+00:00 is not after the one at 2026-01-05T00:19:00.000+00:00: the day so far is written and a new row begins"
            ])
    }

    /// A given `epoch` that is not the input's is caught, not summed as if it were.
    @Test func anEpochOffTheGivenGridIsAnError() throws {
        let h = try SinkHarness(DailySummarySink.self, config: "path: \(tempDirectory())/daily.csv\nepoch: 5m")
        let error = #expect(throws: (any Error).self) { try h.write(Array(Self.day[0..<3])) }
        #expect((error.map { "\($0)" } ?? "").contains("not a multiple of epoch: 300s"))
    }

    @Test(arguments: [
        ("bands: [100, 40]", "must increase"), ("bands: []", "at least one"), ("window: 90s", "whole minutes"),
        ("time_zone: Mars/Olympus", "unknown time zone"), ("epoch: 2.5", "whole number of seconds"),
    ])
    func badSettingsAreRefused(setting: String, message: String) throws {
        let error = #expect(throws: (any Error).self) {
            _ = try SinkHarness(DailySummarySink.self, config: "path: x.csv\n\(setting)")
        }
        #expect((error.map { "\($0)" } ?? "").contains(message))
    }

    /// The rows are the same whatever the batch boundaries: each day waits for the next.
    @Test(arguments: [1, 7, 1000])
    func everyBatchSizeGivesTheSameTable(size: Int) throws {
        let epochs = minuteEpochs(from: Self.monday - 3_600, [(600, 30, 1), (60, 0, 0), (2_000, 120, 1)])
        let whole = try String(contentsOfFile: try summarise(epochs, size: epochs.count), encoding: .utf8)
        let batched = try String(contentsOfFile: try summarise(epochs, size: size), encoding: .utf8)
        #expect(whole.split(separator: "\n").count == 4, "a header and three days")
        #expect(batched == whole)
    }
}
