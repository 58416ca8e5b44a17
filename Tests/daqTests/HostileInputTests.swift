import Foundation
import Testing

/// The hostile files of Tests/Fixtures/hostile (scripts/make-hostile-fixtures.py) through the
/// real `daq`: each used to end `daq inspect` and `daq run` with SIGILL (exit 132) or a fill of
/// gigabytes; now each is a runtime failure (exit 1) naming the file, or a bounded read.
@Suite("hostile recordings")
struct HostileInputTests {
    static func fixture(_ name: String) -> String {
        DAQBinary.repository.appendingPathComponent("Tests/Fixtures/hostile/\(name)").path
    }

    static let traps = [
        ("rate-inf.gt3x", "info.txt's Sample Rate is inf; expected from 1 to 10000"),
        ("rate-1e300.gt3x", "info.txt's Sample Rate is 1e+300; expected from 1 to 10000"),
        ("zip64-count.gt3x", "the member count in the zip64 record at byte "),
        ("zip64-size.gt3x", "the directory size in the zip64 record at byte "),
        ("zip64-locator.gt3x", "the zip64 record offset in the locator at byte "),
    ]

    @Test(arguments: traps)
    func inspectNamesTheNumber(name: String, message: String) throws {
        let path = Self.fixture(name)
        let r = try DAQBinary.run(["inspect", path])
        #expect(r.status == 1, "exit \(r.status): \(r.err)")
        #expect(r.err.contains("\(path): \(message)"), "\(r.err)")
    }

    @Test(arguments: traps)
    func runFailsNamingTheNumber(name: String, message: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = Self.fixture(name)
        let pipeline = dir.appendingPathComponent("p.yaml")
        try """
        name: hostile
        clock: virtual
        sources:
          accel: {type: motion.replay, path: "\(path)"}
        sinks:
          out: {type: null, inputs: [accel]}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let r = try DAQBinary.run(["run", pipeline.path, "--quiet"])
        #expect(r.status == 1, "exit \(r.status): \(r.err)")
        #expect(r.err.contains("\(path): \(message)"), "\(r.err)")
    }

    /// 10⁶ s between two records: the two seconds read, and a gap, in well under a second of work.
    @Test func theFillBombIsTwoSecondsAndAGap() throws {
        let r = try DAQBinary.run(["inspect", Self.fixture("fill-bomb.gt3x")])
        #expect(r.status == 0, "exit \(r.status): \(r.err)")
        #expect(r.out.contains("samples: 60"), "\(r.out)")
        #expect(r.out.contains("device gaps: 1"), "\(r.out)")
        #expect(!r.out.contains("idle-sleep spans filled"), "\(r.out)")
    }
}
