import Foundation
import Testing

/// A fit to reuse that cannot be read is a configuration error, exit status 2 as `daq --help`
/// says, with the file and what was expected: not a runtime failure, and nothing is written.
@Suite("daq run with calibration: {from: …} that cannot be used", .timeLimit(.minutes(20)))
struct CalibrationFromCLITests {
    static let pipeline = DAQBinary.repository.appendingPathComponent("pipelines/activity-summary.yaml").path

    static func run(from fit: String) throws -> (status: Int32, err: String, wrote: Bool) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-calfrom-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let r = try DAQBinary.run(
            [
                "run", pipeline, "--quiet", "--status", "never", "--set", "transforms.cal.calibration={from: \(fit)}",
            ],
            environment: ["OUTPUT": dir.path + "/out", "DAILY": dir.path + "/daily.csv"])
        return (r.status, r.err, FileManager.default.fileExists(atPath: dir.path))
    }

    @Test func aMissingFitFileExitsTwoNamingIt() throws {
        let missing = "/nonexistent/daq-fit-\(UUID().uuidString).json"
        let r = try Self.run(from: missing)
        #expect(r.status == 2, "\(r.err)")
        #expect(r.err.contains("transforms.cal") && r.err.contains("cannot read the fit file '\(missing)'"), "\(r.err)")
        #expect(!r.wrote)
    }

    @Test func aFitFileThatIsNotAFitExitsTwoSayingWhy() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent(
            "daq-notafit-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(#"{"results": {"log": {"type": "logger.csv"}}}"#.utf8).write(to: file)
        let r = try Self.run(from: file.path)
        #expect(r.status == 2, "\(r.err)")
        #expect(r.err.contains("records no motion.calibrate fit in its results"), "\(r.err)")
    }
}
