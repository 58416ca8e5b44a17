import Foundation
import Testing

/// What a new user meets in the first runs, through the real `daq`: a pipeline run from another
/// folder, a missing input file, a bad row, a gap, and where the outputs went.
@Suite("the first runs", .timeLimit(.minutes(20)))
struct FirstRunTests {
    static func scratch(_ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent(
            "daq-first-\(name)-\(UUID().uuidString)"
        )
        .path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// Runs `daq` in `directory`.
    static func daq(_ arguments: [String], in directory: String) throws -> (status: Int32, out: String, err: String) {
        let p = Process()
        p.executableURL = DAQBinary.url
        p.arguments = arguments
        p.currentDirectoryURL = URL(fileURLWithPath: directory)
        let r = try p.runToEnd(timeout: 300)
        return (r.status, r.output, r.errors)
    }

    /// `cd pipelines && daq run accelerometer-replay.yaml`: the recording's relative path is looked
    /// up in the working directory, and the message says which; nothing is left behind.
    @Test func aRunFromAnotherFolderSaysWhereItLookedAndLeavesNoFolder() throws {
        let dir = try Self.scratch("elsewhere")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pipeline = DAQBinary.repository.appendingPathComponent("pipelines/accelerometer-replay.yaml").path
        let r = try Self.daq(["run", pipeline, "--set", "clock=virtual"], in: dir)
        #expect(r.status != 0)
        #expect(r.err.contains("recordings/walk.csv: No such file or directory"), "\(r.err)")
        #expect(r.err.contains("looked up in the working directory \(dir)"), "\(r.err)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "a run that cannot start leaves nothing")
    }

    /// `daq validate` finds the missing input at its `path:` line.
    @Test func validateReportsAMissingInputFileAtItsLine() throws {
        let dir = try Self.scratch("validate")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
        name: missing
        sources:
          accel:
            type: motion.replay
            path: no-such-walk.csv
        sinks:
          out: {type: null, inputs: [accel]}
        """.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let r = try Self.daq(["validate", "p.yaml"], in: dir)
        #expect(r.status == 2, "\(r.err)")
        #expect(r.err.hasPrefix("p.yaml:5:11: error: sources.accel.path: cannot start: "), "\(r.err)")
        #expect(r.err.contains("no-such-walk.csv: No such file or directory"), "\(r.err)")
    }

    /// The run's end names its folder and each file in it.
    @Test func aRunEndsByNamingItsFolderAndFiles() throws {
        let dir = try Self.scratch("wrote")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let pipeline = DAQBinary.repository.appendingPathComponent("pipelines/accelerometer-replay.yaml").path
        let r = try DAQBinary.run(["run", pipeline, "--set", "clock=virtual"], environment: ["OUTPUT": dir])
        #expect(r.status == 0, "\(r.err)")
        let folder = try #require(try FileManager.default.contentsOfDirectory(atPath: dir).first)
        #expect(r.err.contains("  wrote \(dir)/\(folder)/\n    accel.json  6006 samples, "), "\(r.err)")
        #expect(r.err.hasSuffix("    manifest.json\n"), "\(r.err)")
    }

    /// A gap in the recording is said as the replay reaches it, at every clock.
    @Test func aGapIsSaidAsTheReplayReachesIt() throws {
        let dir = try Self.scratch("rows")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var rows = "timestamp,x,y,z\n"
        for i in 0..<200 { rows += "\(Double(i) / 100 + (i >= 100 ? 1.0 : 0)),0,0,1\n" }
        try rows.write(toFile: dir + "/gap.csv", atomically: true, encoding: .utf8)
        for clock in ["virtual", "replay"] {
            try """
            name: rows
            clock: \(clock)
            speed: 20
            sources:
              a: {type: motion.replay, path: gap.csv}
            sinks:
              out: {type: null, inputs: [a]}
            """.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
            let r = try Self.daq(["run", "p.yaml", "--no-control"], in: dir)
            #expect(r.status == 0, "\(r.err)")
            let said = r.err.split(separator: "\n").filter { $0.contains("a gap of") }
            #expect(said.count == 1 && said[0].contains("gap.csv:102: a gap of 1.010 s before this row"), "\(r.err)")
        }
    }
}
