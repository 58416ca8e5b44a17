import Foundation
import Testing

/// `daq validate pipelines/*.yaml` is what a user types first; on the shipped folder it must say
/// yes, read the config tests as tests, and say which variables a run will need.
@Suite("daq validate on a folder", .timeLimit(.minutes(20)))
struct ValidateFolderTests {
    static func shippedFiles() throws -> [String] {
        let folder = DAQBinary.repository.appendingPathComponent("pipelines")
        return try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".yaml") }.sorted().map { "pipelines/" + $0 }
    }

    @Test func theShippedFolderIsValid() throws {
        let files = try Self.shippedFiles()
        let r = try DAQBinary.run(["validate"] + files, unset: ["MQTT_URL", "INPUT", "OUTPUT"])
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.err.contains(": error: "), "\(r.err)")
        for file in files {
            #expect(r.out.contains("\(file): ok ("), "\(file) missing from:\n\(r.out)")
        }
        #expect(r.out.contains("pipelines/hello.daqtest.yaml: ok (config test of pipelines/hello.yaml, "), "\(r.out)")
        #expect(
            r.out.contains("pipelines/edge-to-broker.yaml: ok (2 environment variables to set before a run)"),
            "\(r.out)")
        #expect(
            r.err.contains(
                "pipelines/edge-to-broker.yaml:11:11: note: sources.accel.path: environment variable 'INPUT' is not set and "
                    + "has no default; set it before a run (or write ${INPUT:-default})"), "\(r.err)")
        #expect(r.err.contains("pipelines/edge-to-broker.daqtest.yaml: note: requires MQTT_URL, not set"), "\(r.err)")
    }

    @Test func strictMakesAnUnsetVariableAnError() throws {
        let r = try DAQBinary.run(
            ["validate", "--strict", "pipelines/edge-to-broker.yaml"], unset: ["INPUT", "MQTT_URL"])
        #expect(r.status == 2)
        #expect(r.err.contains("11:11: error: sources.accel.path: environment variable 'INPUT' is not set"), "\(r.err)")
    }

    @Test func aBrokenConfigTestIsAnError() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-validate-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let test = dir.appendingPathComponent("broken.daqtest.yaml")
        try "pipeline: missing.yaml\ncases: []\n".write(to: test, atomically: true, encoding: .utf8)
        let r = try DAQBinary.run(["validate", test.path])
        #expect(r.status == 2)
        #expect(r.err.contains("broken.daqtest.yaml:1:11: error: pipeline:"), "\(r.err)")
    }
}
