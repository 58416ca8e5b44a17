import DAQTesting
import Foundation
import Testing

/// The hashes in a `daq run` manifest, checked against coreutils' `sha256sum`: DAQCore no longer
/// computes them itself (`ContentHash`), and what `daq` records must not change.
@Suite("manifest hashes", .timeLimit(.minutes(20)))
struct ManifestHashTests {
    /// `sha256sum` of `bytes` or of the file at `path`.
    static func sha256sum(path: String? = nil, bytes: Data? = nil) throws -> String {
        let r = try Process.runToEnd("sha256sum", path.map { [$0] } ?? [], input: bytes ?? Data(), timeout: 60)
        try #require(r.status == 0, "sha256sum (coreutils) is needed for this test: \(r.errors)")
        return String(r.output.prefix { $0 != " " })
    }

    @Test func configAndFileHashesAreSHA256() throws {
        let dir = try RunRecordCLITests.temp("hashes")
        defer { try? FileManager.default.removeItem(at: dir) }
        let out = dir.appendingPathComponent("out")
        let pipeline = dir.appendingPathComponent("hashed.yaml")
        let text = """
            name: hashed
            clock: virtual
            sources:
              gen: {type: generator, rate: 100, count: 50}
            sinks:
              jsonl: {type: logger.jsonl, inputs: [gen], directory: "\(out.path)"}
              csv: {type: logger.csv, inputs: [gen], directory: "\(out.path)"}

            """
        try text.write(to: pipeline, atomically: true, encoding: .utf8)
        let run = try DAQBinary.run(["run", pipeline.path, "--set", "sources.gen.rate=200", "--quiet"])
        #expect(run.status == 0, "\(run)")
        let record = try RunRecordCLITests.onlyEntry(out)
        let manifest = try RunRecordCLITests.json(record + "/manifest.json")
        // The config hash covers the text and each override, as `--set key=value` lines.
        let expected = try Self.sha256sum(bytes: Data((text + "\n--set sources.gen.rate=200").utf8))
        #expect(manifest["configSHA256"] as? String == expected)
        let files = try #require(manifest["files"] as? [[String: Any]])
        #expect(files.count == 2)
        for f in files {
            let path = record + "/" + (f["path"] as? String ?? "")
            #expect(f["sha256"] as? String == (try Self.sha256sum(path: path)), "\(f)")
        }
    }
}
