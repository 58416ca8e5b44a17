import DAQTesting
import Foundation
import Testing

/// Device files as their peers read them, through the real `daq`: a `.cwa` with damaged
/// sectors is read around by default (and stops with `on_bad_row: fail`), and an old
/// NHANES-layout `.gt3x` is read, not refused.
@Suite("device files through daq", .timeLimit(.minutes(20)))
struct DeviceFilesCLITests {
    /// Runs `motion.replay` on `input` into a CSV file; the exit status, stderr and the CSV's data rows.
    static func replay(_ input: String, _ extra: String = "") throws -> (Int32, String, [Substring]) {
        let dir = URL(fileURLWithPath: input).deletingLastPathComponent().path
        let pipeline = dir + "/replay.yaml"
        try """
        name: device
        sources:
          accel: {type: motion.replay, path: "\(input)"\(extra)}
        sinks:
          out: {type: file, inputs: [accel], path: "\(dir)/out.csv", format: csv, markers: false}
        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        let r = try DAQBinary.run(["run", pipeline, "--status", "never"])
        let csv = (try? String(contentsOfFile: dir + "/out.csv", encoding: .utf8)) ?? ""
        return (r.status, r.err, csv.split(separator: "\n").dropFirst().map { $0 })
    }

    static func directory() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-device-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func aCWAWithDamagedSectorsIsReadAroundThemByDefault() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var w = CWAWriter()
        w.seconds = 12
        w.corrupt = [4]
        let path = dir + "/damaged.cwa"
        try w.write(to: path)
        let (status, err, rows) = try Self.replay(path)
        #expect(status == 0, "\(err)")
        // The writer counts data sectors from 0; the message, as a reader would, from 1.
        #expect(err.contains("skipped \(path):5: sector 5 at byte \(1024 + 4 * 512) fails its checksum"), "\(err)")
        #expect(err.contains("1 gap(s) without samples, 1.200 s in all"), "\(err)")
        #expect(rows.count == w.sampleCount - w.samplesPerSector, "\(rows.count) rows")
        let (failed, message, _) = try Self.replay(path, ", on_bad_row: fail")
        #expect(failed != 0 && message.contains("sector 5 at byte \(1024 + 4 * 512)"), "\(message)")
    }

    @Test func anOldNHANESLayoutGT3XIsRead() throws {
        let dir = try Self.directory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var w = GT3XWriter()
        w.layout = .nhanes
        w.activity = .activity
        w.rate = 40
        w.seconds = 15
        w.scale = 341
        w.serial = "NEO1C12345678"
        let path = dir + "/old.gt3x"
        try w.write(to: path)
        let inspect = try DAQBinary.run(["inspect", path])
        #expect(inspect.status == 0, "\(inspect.err)")
        #expect(inspect.out.contains("NHANES activity.bin"), "\(inspect.out)")
        let (status, err, rows) = try Self.replay(path)
        #expect(status == 0, "\(err)")
        #expect(rows.count == 40 * 15, "\(rows.count) rows")
    }
}
