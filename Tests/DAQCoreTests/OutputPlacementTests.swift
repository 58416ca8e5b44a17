import Foundation
import Testing

@testable import DAQCore

/// Where a run writes cannot be steered by what someone left in its folder: a symbolic link
/// at an output's path or at the run directory's name is never followed.
@Suite("outputs are not written through links", .timeLimit(.minutes(20)))
struct OutputPlacementTests {
    static func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-place-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    @Test func anOutputThatIsASymbolicLinkIsRefusedAndItsTargetUntouched() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let target = dir + "/precious.txt"
        try "keep me\n".write(toFile: target, atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: dir + "/out.csv", withDestinationPath: target)
        do {
            _ = try OutputFile(path: dir + "/out.csv", append: false)
            Issue.record("opened through the link")
        } catch {
            #expect("\(error)".contains("symbolic link"), "\(error)")
        }
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me\n")
    }

    @Test func aRunDirectoryNameTakenByALinkGetsTheNextSuffix() throws {
        let dir = try Self.scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let elsewhere = dir + "/elsewhere"
        try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
        let start = 1_800_000_000.0
        let name = RunRecorder.directoryName(pipeline: "p", start: start)
        try FileManager.default.createSymbolicLink(atPath: dir + "/" + name, withDestinationPath: elsewhere)
        let recorder = RunRecorder(pipelineName: "p", configHash: "h", configFile: "p.yaml", startDate: start)
        let made = try recorder.directory(under: dir)
        #expect(made == dir + "/" + name + "-2")
        #expect(try FileManager.default.contentsOfDirectory(atPath: elsewhere).isEmpty)
        // Two recorders of runs started in the same second never share a directory.
        let other = RunRecorder(pipelineName: "p", configHash: "h", configFile: "p.yaml", startDate: start)
        #expect(try other.directory(under: dir) == dir + "/" + name + "-3")
    }
}
