import DAQCore
import DAQTesting
import Foundation
import Testing

/// `type: grumbler` — warns `count` times, a thousand a read, and emits nothing; keeps a run
/// directory under `directory` so the run has a manifest.
private final class GrumblerSource: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting("warnings") var count = 100_000
        @Setting("where the run directory goes") var directory = ""
    }
    static let typeName = "grumbler"
    static let summary = "test source that only warns"
    private let config: Configuration
    private var warned = 0
    init(configuration: Configuration, context: PluginContext) throws { config = configuration }
    func start(context: StageContext) throws { _ = try context.runDirectory(under: config.directory) }
    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        for _ in 0..<1000 where warned < config.count {
            warned += 1
            context.warn("reading \(warned) is out of range: \(warned * 7) > 5")
        }
        return warned < config.count ? .more : .finished
    }
}

/// A flood of warnings from a plugin: every one is counted, the first few and a summary reach
/// observers and the manifest, and the manifest stays small.
@Suite struct ReportFloodTests {
    @Test func aHundredThousandWarningsMakeASmallManifest() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-flood-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let outcome = try PipelineHarness.run(
            yaml: """
                name: flood
                sources:
                  grumble: {type: grumbler, directory: "\(dir)"}
                sinks:
                  out: {type: collect, inputs: [grumble]}
                """,
            plugins: [.source(GrumblerSource.self)])
        #expect(outcome.result.state == .finished)
        #expect(outcome.result.stages.first { $0.name == "grumble" }?.errors == 100_000)
        let warnings = outcome.events.compactMap { if case .warning(_, let m) = $0 { m } else { nil } }
        #expect(warnings.count == 20 + 4 + 1, "\(warnings.suffix(6))")
        #expect(warnings.first == "reading 1 is out of range: 7 > 5")
        #expect(warnings.last == "… and 99,980 more like it: reading # is out of range")

        let run = try #require(try FileManager.default.contentsOfDirectory(atPath: dir).first)
        let path = "\(dir)/\(run)/manifest.json"
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size < 16_384, "the manifest takes \(size) bytes")
        let manifest = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        guard case .object(let m) = manifest, case .array(let notes)? = m["notes"] else {
            Issue.record("no notes in \(manifest)")
            return
        }
        #expect(notes.count == 21)
        #expect(notes.first == .string("grumble: warning: reading 1 is out of range: 7 > 5"))
        #expect(notes.last == .string("grumble: warning: … and 99,980 more like it: reading # is out of range"))
    }
}
