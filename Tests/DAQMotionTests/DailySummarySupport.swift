import DAQCore
import DAQMotion
import DAQTesting
import Foundation
import Testing

/// Epochs as motion.enmo emits them, written by hand: `(minutes, enmo_mg, wear)` runs of one
/// minute epochs from `start` (UTC seconds).
func minuteEpochs(from start: Double, _ runs: [(minutes: Int, mg: Double, wear: Double)]) -> [Sample] {
    var out: [Sample] = []
    var t = start
    for run in runs {
        for _ in 0..<run.minutes {
            out.append(
                Sample(
                    timestamp: t, uptime: t - start,
                    fields: ["enmo_mg": .double(run.mg), "samples": 6000, "wear": .double(run.wear), "partial": false]))
            t += 60
        }
    }
    return out
}

/// What summary.daily wrote, read back: the CSV header's names and each row by name.
struct DailyTableText {
    var names: [String]
    var rows: [[String: String]]

    init(csv path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let header = try #require(lines.first).map(String.init)
        names = header
        rows = lines.dropFirst().map { cells in
            Dictionary(uniqueKeysWithValues: zip(header, cells.map(String.init)))
        }
    }
}

/// Whether a JSON table holds the same rows as a CSV one: numbers equal as numbers, empty
/// cells as null, `true`/`false` as booleans, text as strings. Returns what differs.
func jsonDifferences(_ json: String, from csv: DailyTableText) throws -> [String] {
    let data = try Data(contentsOf: URL(fileURLWithPath: json))
    let array = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]], "not a JSON array")
    var found: [String] = []
    if array.count != csv.rows.count { found.append("\(array.count) objects, \(csv.rows.count) CSV rows") }
    for (object, row) in zip(array, csv.rows) {
        if Set(object.keys) != Set(csv.names) { found.append("keys \(object.keys.sorted()), not \(csv.names)") }
        for name in csv.names {
            let cell = row[name] ?? ""
            let value = object[name]
            let same: Bool
            if cell.isEmpty {
                same = value is NSNull
            } else if cell == "true" || cell == "false" {
                same = (value as? Bool) == (cell == "true")
            } else if let number = Double(cell) {
                same = (value as? NSNumber)?.doubleValue == number
            } else {
                same = (value as? String) == cell
            }
            if !same { found.append("\(name): \(String(describing: value)), not \(cell)") }
        }
    }
    return found
}

/// Runs summary.daily on `samples` in batches of `size`; returns the table's path.
func summarise(_ samples: [Sample], config: String = "", ext: String = "csv", size: Int = 4096) throws -> String {
    let path = tempDirectory() + "/daily.\(ext)"
    let h = try SinkHarness(DailySummarySink.self, config: "path: \(path)\n" + config)
    var i = 0
    while i < samples.count {
        try h.write(Array(samples[i..<min(i + size, samples.count)]))
        i += size
    }
    try h.finish()
    return path
}
