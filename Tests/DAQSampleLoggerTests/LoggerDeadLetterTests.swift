import DAQCore
import DAQTesting
import Foundation
import Testing

/// A logger whose `write` really fails follows its `on_error` through the engine.
///
/// Inside `write` a logger opens a stream's file on the stream's first data, and flushes a
/// buffer grown past 64 KiB; a full disk mostly shows at the periodic or final flush instead,
/// outside `write`, where `on_error` does not apply. A stream named beyond the 255 bytes a file
/// name may have makes the open fail for real (ENAMETOOLONG) at write time, every time, as root
/// too, while the logger's other streams are written as usual.
@Suite("Logger dead letters", .timeLimit(.minutes(20)))
struct LoggerDeadLetterTests {
    static let longName = String(repeating: "s", count: 260)

    @Test(arguments: ["logger.json", "logger.jsonl", "logger.csv"], [ErrorPolicy.deadLetter, .skip, .stop])
    func aStreamWhoseFileCannotBeCreatedFollowsThePolicy(type: String, policy: ErrorPolicy) throws {
        let base = tempDirectory()
        let yaml = """
            name: walk
            clock: virtual
            sources:
              accel: {type: test.samples, count: 10, rate: 10, base: 1700000000}
              \(Self.longName): {type: test.samples, count: 4, rate: 10, base: 1700000000}
            sinks:
              log:
                {type: \(type), inputs: [accel, \(Self.longName)], directory: "\(base)", on_error: \(policy.rawValue)}
            \(policy == .deadLetter ? "  dead: {type: collect, inputs: [log.dead]}" : "")
            """
        // One sample a batch: each of the long stream's four batches fails on its own.
        let outcome = try PipelineHarness.run(
            yaml: yaml, plugins: testPlugins, options: RunOptions(batchSize: 1, flushInterval: 0))
        let tooLong = "File name too long"
        if policy == .stop {
            #expect(outcome.result.state == .failed)
            #expect(outcome.result.failure?.contains(tooLong) == true, "\(outcome.result.failure ?? "")")
            return
        }
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        let log = try #require(outcome.result.stages.first { $0.name == "log" })
        #expect(log.errors == 4, "\(log)")
        // The other stream's file is whole: its ten samples, and the start and stop markers.
        let ext = String(type.dropFirst("logger.".count))
        let dir = try runDirectory(under: base)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["accel.\(ext)", "manifest.json"])
        let files = try parseJSON(dir + "/manifest.json").object["files"]?.array ?? []
        #expect(files.map { $0.object["samples"] } == [.int(12)], "\(files)")
        if policy == .skip {
            let skipped = outcome.events.filter {
                guard case .warning("log", let m) = $0 else { return false }
                return m.hasPrefix("skipped 1 sample(s)") && m.contains(tooLong)
            }
            #expect(skipped.count == 4)
            return
        }
        let dead = outcome.data("dead")
        #expect(dead.map { $0["seq"]?.doubleValue } == [0, 1, 2, 3], "\(dead)")
        #expect(dead.map(\.uptime) == [0, 0.1, 0.2, 0.3])
        #expect(dead.map { $0["label"] } == (0..<4).map { .string("a,\"\($0)\"") })
        for letter in dead {
            #expect(letter.stream == "log.dead" && letter["component"] == .string("log"))
            #expect(letter["error"]?.stringValue?.contains(tooLong) == true, "\(letter)")
        }
    }
}
