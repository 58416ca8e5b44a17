import Foundation
import Testing

/// A bad row that stops a run says, beside the error, how to read on past it: the key is
/// `on_bad_row`, and a new user would not guess it from the error alone.
@Suite("a bad row's error says how to read on", .timeLimit(.minutes(20)))
struct BadRowHintTests {
    static func run(_ source: String, file name: String, _ text: String) throws -> (Int32, String) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-badrow-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent(name).path
        try text.write(toFile: input, atomically: true, encoding: .utf8)
        let pipeline = dir.appendingPathComponent("p.yaml").path
        try """
        name: bad
        sources:
          in: {type: \(source), path: \(input)}
        sinks:
          out: {type: null, inputs: [in]}
        """.write(toFile: pipeline, atomically: true, encoding: .utf8)
        let r = try DAQBinary.run(["run", pipeline, "--status", "never"])
        return (r.status, r.err)
    }

    @Test(arguments: [
        ("motion.replay", "walk.csv", "timestamp,x,y,z\n0,0,0,1\n0.01,zero,0,1\n0.02,0,0,1\n", "walk.csv:3"),
        ("file", "rows.csv", "a,b\n1,2\n3\n4,5\n", "rows.csv:3"),
    ])
    func theFailureComesWithTheKeyThatReadsOn(_ source: String, _ name: String, _ text: String, _ place: String)
        throws
    {
        let (status, err) = try Self.run(source, file: name, text)
        #expect(status != 0, "\(err)")
        #expect(err.contains(place), "\(err)")
        #expect(err.contains("on_bad_row: skip reports each bad row by file and line and reads on past it"), "\(err)")
    }
}
