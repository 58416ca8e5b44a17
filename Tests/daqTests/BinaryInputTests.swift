import Foundation
import Testing

/// A binary file given to a text source is named for what it is, and no raw byte is printed.
@Suite("binary files given to text sources", .timeLimit(.minutes(20)))
struct BinaryInputTests {
    @Test(arguments: ["file", "barcode.replay"])
    func aDeviceRecordingIsNamedNotPrinted(type: String) throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-binary-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("wrist.jsonl")
        try FileManager.default.copyItem(
            at: DAQBinary.repository.appendingPathComponent("recordings/wrist.gt3x"), to: input)
        let pipeline = dir.appendingPathComponent("p.yaml")
        try """
        sources:
          in: {type: \(type), path: "\(input.path)"}
        sinks:
          out: {type: null, inputs: [in]}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let r = try DAQBinary.run(["run", pipeline.path, "--quiet"])
        #expect(r.status != 0)
        #expect(
            r.err.contains("wrist.jsonl: the file looks binary: a ZIP archive (an ActiGraph .gt3x recording is one"),
            "\(r.err)")
        #expect(
            !r.err.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" || $0.value == 0x7F },
            "raw bytes in \(r.err.debugDescription)")
    }
}
