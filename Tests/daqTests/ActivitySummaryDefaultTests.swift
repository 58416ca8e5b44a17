import DAQTesting
import Foundation
import Testing

/// pipelines/activity-summary.yaml as a new user first runs it, on the recording it ships with:
/// a fit that is accepted and finds the miscalibration put in, a non-wear span, and daily rows
/// with M5 and L5. Beside it, a recording too short for a fit: the run, the batch table and the
/// collected table each say the fit was not accepted, and why.
@Suite("activity-summary.yaml on its shipped recording", .timeLimit(.minutes(20)))
struct ActivitySummaryDefaultTests {
    static let pipeline = DAQBinary.repository.appendingPathComponent("pipelines/activity-summary.yaml").path
    static let shipped = DAQBinary.repository.appendingPathComponent("recordings/wrist-38h.cwa").path
    static let short = DAQBinary.repository.appendingPathComponent("recordings/wrist.cwa").path

    /// The signal the shipped file was written from (its header comment says how).
    static var signal: WristActivity {
        var s = WristActivity()
        s.rate = 12.5
        return s
    }

    @Test func theShippedRecordingIsADayAndAHalfUnderTenMegabytes() throws {
        let size = try #require(
            try FileManager.default.attributesOfItem(atPath: Self.shipped)[.size] as? Int)
        #expect(size <= 10_000_000, "\(size) bytes")
        let info = try DAQBinary.run(["inspect", Self.shipped])
        #expect(info.status == 0, "\(info.err)")
        #expect(info.out.contains("1710000"), "38 h at 12.5 Hz: \(info.out)")
    }

    @Test func theDefaultRunFitsFindsNonwearAndFillsEveryDailyColumn() throws {
        let dir = try BatchSupport.scratch("activity-default")
        defer { try? FileManager.default.removeItem(at: dir) }
        let daily = dir.appendingPathComponent("daily.csv")
        let r = try DAQBinary.run(
            ["run", Self.pipeline, "--status", "never"],
            environment: ["OUTPUT": dir.path + "/out", "DAILY": daily.path])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("accepted (fitted)"), "\(r.err)")
        #expect(!r.err.contains("not accepted"), "\(r.err)")

        let table = try BatchSupport.pythonCSV(daily)
        try #require(table.count == 3, "a header and two days: \(table)")
        let header = table[0]
        func cell(_ row: [String], _ name: String) throws -> String {
            row[try #require(header.firstIndex(of: name), "\(header)")]
        }
        for (day, row) in table.dropFirst().enumerated() {
            #expect(try cell(row, "metric") == "enmo_mg", "\(row)")
            let hours = day == 0 ? 14.0 : 24.0
            #expect(Double(try cell(row, "recorded_hours")) == hours, "\(row)")
            let wear = try #require(Double(try cell(row, "wear_hours")), "\(row)")
            // Non-wear is found to the 15-minute step; the table spans the second morning.
            let expected = hours - Self.signal.offWristHours(day: day)
            #expect(abs(wear - expected) <= 0.25, "day \(day): wear \(wear) h, expected \(expected)")
            for name in ["mean_mg", "m5_mg", "m5_start", "l5_mg", "l5_start"] {
                #expect(!(try cell(row, name)).isEmpty, "\(name) empty: \(row)")
            }
        }
        // A full day worn 21 hours is not low wear; the 14-hour first day is.
        #expect(try cell(table[2], "low_wear") == "false" && cell(table[1], "low_wear") == "true")

        // The fit found the miscalibration the file was written with.
        let runs = try FileManager.default.contentsOfDirectory(atPath: dir.path + "/out")
        try #require(runs.count == 1, "\(runs)")
        let manifest = URL(fileURLWithPath: dir.path + "/out/" + runs[0] + "/manifest.json")
        let m = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any]
        let fit = try #require((m?["results"] as? [String: Any])?["cal"] as? [String: Any])
        #expect(fit["accepted"] as? Bool == true, "\(fit)")
        let (offset, gain) = ((fit["offset"] as? [Double]) ?? [], (fit["gain"] as? [Double]) ?? [])
        try #require(offset.count == 3 && gain.count == 3, "\(fit)")
        for k in 0..<3 {
            #expect(abs(offset[k] - Self.signal.correction.offset[k]) < 0.005, "axis \(k): \(offset) g")
            #expect(abs(gain[k] - Self.signal.correction.gain[k]) < 0.005, "axis \(k): \(gain)")
        }
    }

    @Test func aRejectedFitIsNamedInTheRunSummary() throws {
        let dir = try BatchSupport.scratch("activity-short")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try DAQBinary.run(
            ["run", Self.pipeline, "--status", "never"],
            environment: ["INPUT": Self.short, "OUTPUT": dir.path + "/out", "DAILY": dir.path + "/daily.csv"])
        #expect(r.status == 0, "\(r.err)")
        let line = r.err.split(separator: "\n").first { $0.hasPrefix("  result: ") }
        #expect(
            line?.contains("cal (motion.calibrate) not accepted: 0 still windows") == true,
            "no result line in the summary: \(r.err)")
    }

    @Test func aBatchSaysWhichRecordingsFitWasRejectedAndTheTableHasItsColumns() throws {
        let dir = try BatchSupport.scratch("activity-verdicts")
        defer { try? FileManager.default.removeItem(at: dir) }
        let rec = dir.appendingPathComponent("rec")
        try FileManager.default.createDirectory(at: rec, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: rec.path + "/long.cwa", withDestinationPath: Self.shipped)
        try FileManager.default.createSymbolicLink(atPath: rec.path + "/short.cwa", withDestinationPath: Self.short)
        let output = dir.appendingPathComponent("out")
        let r = try BatchSupport.batch(
            [Self.pipeline, "--input", rec.path + "/*.cwa", "--output", output.path, "--collect", "daily.csv"])
        #expect(r.status == 0, "\(r.err)")
        let shortLine = r.err.split(separator: "\n").first { $0.contains("short.cwa") && $0.contains("finished") }
        #expect(
            shortLine?.contains("cal (motion.calibrate) not accepted: 0 still windows") == true,
            "the table does not say the fit was rejected: \(r.err)")
        let longLine = r.err.split(separator: "\n").first { $0.contains("long.cwa") && $0.contains("finished") }
        #expect(longLine?.contains("not accepted") == false, "\(r.err)")
        #expect(r.err.contains("2 recordings: 2 finished (1 with a result not accepted)"), "\(r.err)")

        let table = try BatchSupport.pythonCSV(output.appendingPathComponent("daily.csv"))
        let header = try #require(table.first)
        #expect(Array(header.prefix(3)) == ["recording", "cal_accepted", "cal_reason"], "\(header)")
        let verdicts = Dictionary(table.dropFirst().map { ($0[0], ($0[1], $0[2])) }) { a, _ in a }
        #expect(verdicts["long"]?.0 == "true" && verdicts["long"]?.1 == "fitted", "\(verdicts)")
        #expect(verdicts["short"]?.0 == "false", "\(verdicts)")
        #expect(verdicts["short"]?.1.hasPrefix("0 still windows") == true, "\(verdicts)")

        // Collected again in a later step (as after a sharded batch): the same columns, from
        // each recording's batch.json.
        let again = try BatchSupport.batch(
            [
                Self.pipeline, "--input", rec.path + "/*.cwa", "--output", output.path, "--collect", "daily.csv",
                "--collect-only",
            ])
        #expect(again.status == 0, "\(again.err)")
        #expect(try BatchSupport.pythonCSV(output.appendingPathComponent("daily.csv")) == table)
    }
}
