import DAQCore
import Foundation

/// Writes ``DayRow``s as CSV rows or as the objects of a JSON array, with the same names and
/// the same text for every value: hours to 4 decimals, minutes to 2, mg to 3, window starts as
/// ISO 8601 dates on the local clock with the offset in force (a 25-hour day repeats an hour).
struct DayRowEncoding {
    /// The column names, in order; the band columns follow the configured bounds.
    let names: [String]
    /// The epoch field the day's numbers are of (`enmo_mg`), written in every row's `metric`:
    /// a table copied out of its run still says what `mean_mg` is the mean of.
    let metric: String
    private var dates: LocalDateFormat

    init(bands: [Double], zone: TimeZone, metric: String) {
        names = Self.names(bands: bands)
        self.metric = metric
        dates = LocalDateFormat(zone: zone)
    }

    static func names(bands: [Double]) -> [String] {
        let bounds = bands.map(Self.bound)
        var bandNames = ["minutes_below_\(bounds[0])"]
        for i in 1..<max(1, bounds.count) { bandNames.append("minutes_\(bounds[i - 1])_\(bounds[i])") }
        bandNames.append("minutes_\(bounds[bounds.count - 1])_up")
        return ["date", "day_hours", "epochs", "recorded_hours", "wear_hours", "low_wear", "metric", "mean_mg"]
            + bandNames
            + ["m5_mg", "m5_start", "l5_mg", "l5_start"]
    }

    /// A bound as a column name takes it: `40`, `12.5`, `-5`.
    private static func bound(_ b: Double) -> String {
        b.rounded() == b && abs(b) < 1e15 ? String(Int64(b)) : "\(b)"
    }

    /// The CSV header line.
    var csvHeader: [UInt8] { Array((names.joined(separator: ",") + "\n").utf8) }

    /// The cells of `row` in column order, each appended by `cell` into `out`.
    private mutating func cells(
        _ row: DayRow, lowWear: Bool, json: Bool, _ cell: (Int, inout [UInt8]) -> Void,
        to out: inout [UInt8]
    ) {
        var c = 0
        func next(_ out: inout [UInt8]) {
            cell(c, &out)
            c += 1
        }
        let null: [UInt8] = json ? Array("null".utf8) : []
        func text(_ s: String, _ out: inout [UInt8]) {
            if json { JSONEncoding.appendString(s, to: &out) } else { CSVText.appendCell(s, to: &out) }
        }
        next(&out)
        text(row.date, &out)
        next(&out)
        NumberFormatting.appendFixed(row.dayHours, decimals: row.dayHours.rounded() == row.dayHours ? 0 : 2, to: &out)
        next(&out)
        NumberFormatting.appendInt(Int64(row.epochs), to: &out)
        next(&out)
        NumberFormatting.appendFixed(row.recordedHours, decimals: 4, to: &out)
        next(&out)
        NumberFormatting.appendFixed(row.wearHours, decimals: 4, to: &out)
        next(&out)
        out.append(contentsOf: (lowWear ? "true" : "false").utf8)
        next(&out)
        text(metric, &out)
        next(&out)
        if let mean = row.mean { NumberFormatting.appendFixed(mean, decimals: 3, to: &out) } else { out += null }
        for minutes in row.bandMinutes {
            next(&out)
            NumberFormatting.appendFixed(minutes, decimals: 2, to: &out)
        }
        for w in [row.m5, row.l5] {
            next(&out)
            if let w { NumberFormatting.appendFixed(w.mean, decimals: 3, to: &out) } else { out += null }
            next(&out)
            if let w { text(dates.string(w.start), &out) } else { out += null }
        }
    }

    /// Appends `row` as one CSV line.
    mutating func appendCSV(_ row: DayRow, lowWear: Bool, to out: inout [UInt8]) {
        cells(row, lowWear: lowWear, json: false, { i, out in if i > 0 { out.append(UInt8(ascii: ",")) } }, to: &out)
        out.append(0x0A)
    }

    /// Appends `row` as one JSON object (no separator, no line break).
    mutating func appendJSON(_ row: DayRow, lowWear: Bool, to out: inout [UInt8]) {
        let names = self.names
        out.append(UInt8(ascii: "{"))
        cells(
            row, lowWear: lowWear, json: true,
            { i, out in
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONEncoding.appendString(names[i], to: &out)
                out.append(UInt8(ascii: ":"))
            }, to: &out)
        out.append(UInt8(ascii: "}"))
    }
}
