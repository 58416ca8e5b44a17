import DAQCore
import DAQMotion
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// A bad recording inside a whole run: the manifest records the failure, and what was written
/// before it stays whole.
@Suite(.timeLimit(.minutes(20))) struct ReplayRunTests {
    @Test(arguments: ["logger.jsonl", "logger.json", "logger.csv"])
    func aBadRowFailsTheRunKeepingEveryRowBeforeIt(logger: String) throws {
        var rows = (0..<2000).map { "\(Double($0) / 100),\($0),0,1\n" }
        rows[1498] = "14.98,1498,zero,1\n"  // line 1500 of the file
        let path = recording("walk.csv", "t,x,y,z\n" + rows.joined())
        let base = tempDirectory()
        let yaml = """
            name: bad
            clock: virtual
            steps: [{path: a, at: 0}, {path: b, at: 10}]
            sources: {accel: {type: motion.replay, path: "\(path)"}}
            sinks: {log: {type: \(logger), inputs: [accel], directory: "\(base)"}}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: MotionPlugins.all + SampleLoggerPlugins.all)
        #expect(outcome.result.state == .failed)
        let failure = "accel: \(path):1500: y is not a number: 'zero'"
        #expect(outcome.result.failure == failure)

        let dirs = try FileManager.default.contentsOfDirectory(atPath: base)
        let dir = base + "/" + (try #require(dirs.first))
        let manifest = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))))
        guard case .object(let m) = manifest else {
            Issue.record("manifest is not an object")
            return
        }
        #expect(m["status"] == .string("failed") && m["failure"] == .string(failure))

        // Read the log back through the same replay source: every row before the bad one, in
        // order, with the step markers.
        let ext = String(logger.dropFirst("logger.".count))
        let (samples, _) = try replayAll(dir + "/accel." + ext)
        let data = samples.filter { $0.kind == .data }
        #expect(data.count == 1498)
        #expect(data.map { $0.number("x") } == (0..<1498).map(Double.init))
        #expect(samples.filter { $0.kind == .marker }.map(\.stepPath) == ["a", "b", "b"])
    }
}
