import Testing

@testable import DAQCLI
@testable import DAQCore

/// The summary `daq run` prints: every sink's counters add up, and the record's problems show.
@Suite("daq run summary", .timeLimit(.minutes(20)))
struct RunSummaryTests {
    static func result(delivered: Int, failed: Int, problems: [String] = []) -> RunResult {
        var source = StageStatistics(name: "gen", kind: .source, type: "generator")
        source.samplesOut = 800
        var sink = StageStatistics(name: "out", kind: .sink, type: "mqtt")
        (sink.samplesIn, sink.sent, sink.delivered, sink.failed) = (803, 803, delivered, failed)
        return RunResult(
            state: .finished, stages: [source, sink], startDate: 0, endDate: 2, recordProblems: problems)
    }

    /// The issue's `sent 803 delivered 403 failed 0`: the 400 in flight are shown as queued.
    @Test func samplesNeitherDeliveredNorFailedAreShownQueued() {
        let lines = RunSummary.text(Self.result(delivered: 403, failed: 0), pipeline: "p").split(separator: "\n")
        let header = lines.first { $0.contains("stage") }.map { $0.split(separator: " ") } ?? []
        let row = lines.first { $0.hasPrefix("  out ") }.map { $0.split(separator: " ") } ?? []
        #expect(header.suffix(4) == ["sent", "delivered", "failed", "queued"], "\(lines)")
        #expect(row.suffix(4) == ["803", "403", "0", "400"], "\(lines)")
    }

    @Test func aSummaryWhoseCountersAddUpHasNoQueuedColumn() {
        let text = RunSummary.text(Self.result(delivered: 800, failed: 3), pipeline: "p")
        #expect(!text.contains("queued"), "\(text)")
    }

    @Test func aManifestThatCouldNotBeWrittenIsInTheSummary() {
        let problem = "cannot write out/p-1/manifest.json: No space left on device"
        let text = RunSummary.text(Self.result(delivered: 803, failed: 0, problems: [problem]), pipeline: "p")
        #expect(text.contains("  record: " + problem), "\(text)")
    }
}
