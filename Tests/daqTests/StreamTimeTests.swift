import Foundation
import Testing

/// A sample's time and step, end to end through the real `daq`: a live step reaches every later
/// sample, a replayed recording keeps its dates through `window` into files and logs, and two
/// recordings in two zones each get their own local epochs.
@Suite("time and steps through daq")
struct StreamTimeTests {
    static func scratch(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-\(name)-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    static func jsonLines(_ path: String) throws -> [[String: Any]] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
    }

    /// A realtime generator into a file; `daq control … step` while it runs. Every data sample
    /// at or after the step marker's time carries the step, none before it does, and the
    /// samples `daq tap` saw after the step was taken carry it too.
    @Test func aLiveStepLabelsEverySampleAfterIt() throws {
        let dir = try Self.scratch("live-step")
        let name = "step-\(UUID().uuidString.prefix(8).lowercased())"
        try """
        name: \(name)
        clock: realtime
        sources:
          gen: {type: generator, rate: 50}
        sinks:
          out: {type: file, inputs: [gen], path: "\(dir)/out.jsonl"}
        """.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let run = try LiveProcess(
            ["run", dir + "/p.yaml", "--log-level", "info", "--status", "never", "--flush-interval", "0.05"])
        try #require(run.line { $0.contains("control socket: ") } != nil, "\(run.stderr)")
        let before = try LiveProcess(["tap", name, "gen", "--count", "10"])
        #expect(before.finish() == 0, "\(before.stderr)")
        let step = try DAQBinary.run(["control", name, "step", "trial/1"])
        #expect(step.status == 0, "\(step.err)")
        let after = try LiveProcess(["tap", name, "gen", "--count", "30"])
        #expect(after.finish() == 0, "\(after.stderr)")
        #expect(try DAQBinary.run(["control", name, "stop"]).status == 0)
        #expect(run.finish() == 0, "\(run.stderr)")

        let items = try Self.jsonLines(dir + "/out.jsonl")
        let marker = try #require(
            items.first { $0["kind"] as? String == "marker" && $0["marker"] as? String == "step" }, "\(items.prefix(5))"
        )
        #expect(marker["stepPath"] as? String == "trial/1")
        let at = try #require(marker["uptime"] as? Double)
        // What the tap saw after the step was taken: those acquired at or after its time carry
        // it (one acquired a moment before may go out just after, with the step before it).
        let tapped = after.stdoutLines.compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["tap"] == nil }
        let tappedLater = tapped.filter { ($0["uptime"] as? Double ?? -1) >= at }
        #expect(tapped.count == 30 && tappedLater.count >= 25, "\(tapped)")
        #expect(tappedLater.allSatisfy { $0["stepPath"] as? String == "trial/1" }, "\(tappedLater)")
        // The file sink names the kind of markers and events only.
        let data = items.filter { $0["kind"] == nil }
        let later = data.filter { ($0["uptime"] as? Double ?? -1) >= at }
        #expect(later.count >= 30, "\(later.count) samples after the step at \(at)")
        #expect(later.allSatisfy { $0["stepPath"] as? String == "trial/1" }, "\(later.prefix(3))")
        // Before the step: no step, which the file sink leaves out.
        let earlier = data.filter { ($0["uptime"] as? Double ?? 0) < at }
        #expect(!earlier.isEmpty && earlier.allSatisfy { $0["stepPath"] == nil }, "\(earlier.suffix(3))")
        let markers = items.filter { $0["kind"] as? String == "marker" }.compactMap { $0["marker"] as? String }
        #expect(markers == ["start", "step", "stop"], "\(markers)")
    }

    /// The same at the replay clock: `daq control … step` while walk.csv replays at its own pace
    /// labels every later sample of the recording, the marker dated on the recording's time base.
    @Test func aLiveStepAtTheReplayClockLabelsTheRecordingsLaterSamples() throws {
        let dir = try Self.scratch("replay-step")
        let name = "rstep-\(UUID().uuidString.prefix(8).lowercased())"
        try """
        name: \(name)
        clock: replay
        sources:
          accel: {type: motion.replay, path: recordings/walk.csv}
        sinks:
          out: {type: file, inputs: [accel], path: "\(dir)/out.jsonl"}
        """.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let run = try LiveProcess(
            ["run", dir + "/p.yaml", "--log-level", "info", "--status", "never", "--flush-interval", "0.05"])
        try #require(run.line { $0.contains("control socket: ") } != nil, "\(run.stderr)")
        #expect(try LiveProcess(["tap", name, "accel", "--count", "50"]).finish() == 0)
        #expect(try DAQBinary.run(["control", name, "step", "trial/1"]).status == 0)
        #expect(try LiveProcess(["tap", name, "accel", "--count", "50"]).finish() == 0)
        #expect(try DAQBinary.run(["control", name, "stop"]).status == 0)
        #expect(run.finish() == 0, "\(run.stderr)")

        let items = try Self.jsonLines(dir + "/out.jsonl")
        let marker = try #require(items.first { $0["marker"] as? String == "step" }, "\(items.prefix(3))")
        let at = try #require(marker["uptime"] as? Double)
        // walk.csv's times count from 0: the marker's time is the recording's, its uptime.
        #expect(marker["timestamp"] as? Double == at && marker["stepPath"] as? String == "trial/1")
        let data = items.filter { $0["kind"] == nil }
        let later = data.filter { ($0["uptime"] as? Double ?? -1) >= at }
        #expect(later.count >= 50 && later.allSatisfy { $0["stepPath"] as? String == "trial/1" }, "\(later.count)")
        #expect(data.filter { ($0["uptime"] as? Double ?? 0) < at }.allSatisfy { $0["stepPath"] == nil })
    }

    /// 2025-11-28T10:00:00Z in milliseconds, as phone apps write their times.
    static let phoneStart = 1_764_324_000.0

    /// Five seconds of a phone's accelerometer at 50 Hz, times in epoch milliseconds.
    static func phoneCSV(_ path: String, start: Double = phoneStart, seconds: Int = 5, rate: Int = 50) throws {
        var text = "time,x,y,z\n"
        for i in 0..<(seconds * rate) {
            let ms = Int64((start * 1000).rounded()) + Int64(i * 1000 / rate)
            text += "\(ms),\(Double(i % 7) / 10),0.2,0.98\n"
        }
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    /// Its dates survive `window` into a JSON Lines file, and `logger.csv` of the raw samples and
    /// the windows writes them, the start marker at the recording's start.
    @Test func aReplayedRecordingKeepsItsDatesThroughWindowIntoFilesAndLogs() throws {
        let dir = try Self.scratch("dates")
        try Self.phoneCSV(dir + "/phone.csv")
        try """
        name: dates
        clock: virtual
        sources:
          accel: {type: motion.replay, path: "\(dir)/phone.csv"}
        transforms:
          win: {type: window, inputs: [accel], size: 1, field: x, stats: [count, mean]}
        sinks:
          out: {type: file, inputs: [win], path: "\(dir)/windows.jsonl"}
          log: {type: logger.csv, inputs: [accel, win], directory: "\(dir)/logs"}
        """.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let r = try DAQBinary.run(["run", dir + "/p.yaml", "--status", "never"])
        try #require(r.status == 0, "\(r.err)")

        let items = try Self.jsonLines(dir + "/windows.jsonl")
        let windows = items.filter { $0["kind"] == nil }
        #expect(windows.count == 5, "\(windows)")
        for (k, w) in windows.enumerated() {
            let start = Self.phoneStart + Double(k)
            #expect(w["window_start"] as? Double == start && w["window_end"] as? Double == start + 1, "\(w)")
            #expect(w["timestamp"] as? Double == start + 1, "\(w)")
            #expect(w["count"] as? Int == 50, "\(w)")
        }
        let start = try #require(items.first { $0["marker"] as? String == "start" })
        #expect(start["timestamp"] as? Double == Self.phoneStart, "the file's start marker: \(start)")

        let runDir = try #require(try FileManager.default.contentsOfDirectory(atPath: dir + "/logs").first)
        let accel = try String(contentsOfFile: "\(dir)/logs/\(runDir)/accel.csv", encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(
            accel[0] == ["uptime", "timestamp", "stepPath", "timestampDate", "marker", "x", "y", "z"], "\(accel[0])")
        #expect(accel[1][3] == "2025-11-28T10:00:00.000+00:00" && accel[1][4] == "start", "\(accel[1])")
        #expect(accel[2][3] == "2025-11-28T10:00:00.000+00:00" && accel[2][5] == "0.0", "\(accel[2])")
        #expect(accel[3][3] == "2025-11-28T10:00:00.020+00:00", "every row has its date: \(accel[3])")
        let win = try String(contentsOfFile: "\(dir)/logs/\(runDir)/win.csv", encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        #expect(win[1][3] == "2025-11-28T10:00:00.000+00:00", "the windows' start marker: \(win[1])")
        #expect(win[2][3] == "2025-11-28T10:00:01.000+00:00", "the first window, at its end: \(win[2])")
    }

    /// Two recordings, one made in Kolkata (+05:30) and one in Berlin (+01:00), each with
    /// `time_zone:`, into hourly epochs: each aligns its epochs to its own local midnight, and
    /// each log writes its own zone's dates.
    @Test func twoRecordingsInTwoZonesGetTheirOwnLocalEpochs() throws {
        let dir = try Self.scratch("zones")
        try Self.phoneCSV(dir + "/kolkata.csv", seconds: 3 * 3600, rate: 1)
        try Self.phoneCSV(dir + "/berlin.csv", seconds: 3 * 3600, rate: 1)
        try """
        name: zones
        clock: virtual
        sources:
          kolkata: {type: motion.replay, path: "\(dir)/kolkata.csv", time_zone: Asia/Kolkata}
          berlin: {type: motion.replay, path: "\(dir)/berlin.csv", time_zone: Europe/Berlin}
        transforms:
          k_epochs: {type: motion.enmo, inputs: [kolkata], epoch: 3600}
          b_epochs: {type: motion.enmo, inputs: [berlin], epoch: 3600}
        sinks:
          log: {type: logger.csv, inputs: [k_epochs, b_epochs], directory: "\(dir)/logs"}
        """.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let r = try DAQBinary.run(["run", dir + "/p.yaml", "--status", "never"])
        try #require(r.status == 0, "\(r.err)")
        let runDir = try #require(try FileManager.default.contentsOfDirectory(atPath: dir + "/logs").first)
        func dates(_ file: String) throws -> [String] {
            try String(contentsOfFile: "\(dir)/logs/\(runDir)/\(file)", encoding: .utf8).split(separator: "\n")
                .dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
                .filter { $0[4].isEmpty }.map { $0[3] }
        }
        // 10:00Z is 15:30 in Kolkata: its hours start at :30 UTC, the first cut short at 10:30Z.
        #expect(
            try dates("k_epochs.csv") == [
                "2025-11-28T15:00:00.000+05:30", "2025-11-28T16:00:00.000+05:30", "2025-11-28T17:00:00.000+05:30",
                "2025-11-28T18:00:00.000+05:30",
            ])
        #expect(
            try dates("b_epochs.csv") == [
                "2025-11-28T11:00:00.000+01:00", "2025-11-28T12:00:00.000+01:00", "2025-11-28T13:00:00.000+01:00",
            ])
    }
}
