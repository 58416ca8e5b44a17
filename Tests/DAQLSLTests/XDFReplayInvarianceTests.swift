import DAQCore
import DAQLSL
import DAQTesting
import Foundation
import Testing

/// `xdf.replay` gives the same rows at the virtual, replay and realtime clocks and at batch
/// sizes 1, 7 and 4,096: the merge orders samples by their time, never by batch boundaries.
@Suite(.timeLimit(.minutes(10))) struct XDFReplayInvarianceTests {
    func pipeline(_ path: String, extra: String = "") throws -> String {
        let dir = xdfTemporaryDirectory()
        let yaml = """
            name: xdf-invariance
            clock: virtual
            sources:
              rec: {type: xdf.replay, path: "\(path)"\(extra)}
            sinks:
              out: {type: collect, inputs: [rec]}
            """
        try yaml.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        return dir + "/p.yaml"
    }

    /// Every stream merged, and one stream alone (copied run by run, not merged).
    @Test(arguments: [("", 6000 + 2000 + 600 + 6), (", streams: [EEG]", 6000)])
    func everyClockAndBatchSizeGivesTheSameRows(extra: String, samples: Int) throws {
        let (path, _) = try XDFFixture.write()
        let file = try pipeline(path, extra: extra)
        let once = try PipelineHarness.run(
            yaml: try String(contentsOfFile: file, encoding: .utf8), plugins: LSLPlugins.all, file: file)
        // Worth comparing only when every stream is there.
        try #require(once.data("out").count == samples, "\(once.result)")
        let differences = try ClockInvariance.differences(
            pipeline: file, plugins: LSLPlugins.all + [.collect], replaySpeed: 1000)
        #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n"))")
    }

    /// The realtime clock, for the first 2 s of the recording.
    @Test func theRealtimeClockGivesTheSameRows() throws {
        let (path, _) = try XDFFixture.write()
        let differences = try ClockInvariance.differences(
            pipeline: try pipeline(path), plugins: LSLPlugins.all + [.collect], duration: 2,
            variants: ClockInvariance.realtimeVariants)
        #expect(differences.isEmpty, "\(differences.prefix(5).joined(separator: "\n"))")
    }
}
