import DAQTesting
import Foundation
import Testing

/// pipelines/activity-summary.yaml over a folder of miscalibrated, partly unworn `.cwa`
/// recordings, as a study runs it: in two shards, resumed, then one daily table for the batch.
@Suite("activity-summary.yaml over a batch", .timeLimit(.minutes(20)))
struct ActivitySummaryBatchTests {
    static let pipeline = DAQBinary.repository.appendingPathComponent("pipelines/activity-summary.yaml").path
    /// 26 h from 10:00: a 14-hour first day and a 12-hour second one, at a low rate to stay quick.
    static let hours = 26.0
    static let rate = 12.5

    /// p1 is off the wrist 14:00–17:00 on its first day; p2 is worn throughout, and
    /// miscalibrated otherwise.
    static let recordings: [String: WristActivity] = {
        var p1 = WristActivity()
        p1.rate = rate
        p1.offWrist = [(4 * 3_600.0)..<(7 * 3_600.0)]
        var p2 = WristActivity()
        p2.rate = rate
        p2.offWrist = []
        p2.offset = (-0.04, 0.03, -0.02)
        p2.gain = (0.985, 1.02, 0.99)
        return ["p1": p1, "p2": p2]
    }()

    static func write(in dir: URL) throws {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, signal) in recordings {
            var w = CWAWriter()
            w.rate = rate
            w.seconds = hours * 3_600
            w.start = 1_772_445_600  // 2026-03-02 10:00:00
            w.counts = signal.counts
            try w.write(to: dir.appendingPathComponent(name + ".cwa").path)
        }
    }

    @Test func shardedResumedAndCollectedIntoOneDailyTable() throws {
        let dir = try BatchSupport.scratch("activity")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Self.write(in: dir.appendingPathComponent("rec"))
        let input = dir.path + "/rec/*.cwa"
        let output = dir.appendingPathComponent("out")
        let common = [Self.pipeline, "--input", input, "--output", output.path, "--jobs", "1"]

        // Two array tasks' shares (which recording falls in which depends on the paths), with the
        // progress bar that only a terminal gets by default: the share that has work shows it.
        let shares = try ["1/2", "2/2"].map {
            try DAQBinary.run(["batch"] + common + ["--shard", $0, "--progress", "always"])
        }
        for share in shares { #expect(share.status == 0, "\(share.err)") }
        #expect(shares.contains { $0.err.contains(" files · ") }, "no progress bar: \(shares.map(\.err))")

        // The whole batch again resumes: nothing runs twice, and the table is collected.
        let collected = try BatchSupport.batch(common + ["--collect", "daily.csv"])
        #expect(collected.status == 0, "\(collected.err)")
        #expect(collected.err.contains("2 recordings: 0 finished, 2 skipped (already done)"), "\(collected.err)")

        let table = try BatchSupport.pythonCSV(output.appendingPathComponent("daily.csv"))
        try #require(table.count == 5, "a header and a row per recording and day: \(table)")
        let header = table[0]
        func column(_ name: String) throws -> Int { try #require(header.firstIndex(of: name), "\(header)") }
        let (recording, date, recorded, wear, low, mean) = try (
            column("recording"), column("date"), column("recorded_hours"), column("wear_hours"), column("low_wear"),
            column("mean_mg")
        )
        let (m5, l5) = try (column("m5_mg"), column("l5_mg"))
        #expect(
            table.dropFirst().map { "\($0[recording]) \($0[date])" } == [
                "p1 2026-03-02", "p1 2026-03-03", "p2 2026-03-02", "p2 2026-03-03",
            ])
        for row in table.dropFirst() {
            let name = row[recording]
            let signal = try #require(Self.recordings[name])
            let day = row[date] == "2026-03-02" ? 0 : 1
            let hours = day == 0 ? 14.0 : 12.0
            let expectedWear = hours - signal.offWristHours(day: day)
            let got = try #require(Double(row[wear]), "\(row)")
            // Non-wear is found to the 15-minute step.
            #expect(abs(got - expectedWear) <= 0.25, "\(name) day \(day): wear \(got) h, expected \(expectedWear)")
            #expect(Double(row[recorded]) == hours, "\(row)")
            #expect(row[low] == "true", "under 16 worn hours: \(row)")
            let (meanMg, m5Mg) = (try #require(Double(row[mean])), try #require(Double(row[m5])))
            // Sitting, walking and nights of a calibrated device: tens of mg, not a miscalibration's.
            #expect(meanMg > 5 && meanMg < 150, "\(row)")
            #expect(m5Mg >= meanMg, "\(row)")
            if let l5Mg = Double(row[l5]) { #expect(l5Mg <= meanMg && l5Mg >= 0, "\(row)") }
        }

        // Each recording got its own fit, and it found the miscalibration put in.
        for (name, signal) in Self.recordings {
            // The recording's folder holds its daily.csv beside the one run directory.
            let folder = output.appendingPathComponent(name)
            let runs = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
                $0.hasPrefix("activity-summary-")
            }
            try #require(runs.count == 1, "\(name): \(runs)")
            let manifest = folder.appendingPathComponent(runs[0]).appendingPathComponent("manifest.json")
            let m = try JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any]
            let fit = (m?["results"] as? [String: Any])?["cal"] as? [String: Any]
            #expect(fit?["accepted"] as? Bool == true, "\(name): \(fit ?? [:])")
            let found = (fit?["offset"] as? [Double]) ?? []
            try #require(found.count == 3, "\(name): \(fit ?? [:])")
            for k in 0..<3 {
                #expect(abs(found[k] - signal.correction.offset[k]) < 0.005, "\(name) axis \(k): \(found) g")
            }
        }
    }
}
