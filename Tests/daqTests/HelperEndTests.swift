import DAQTesting
import Foundation
import Testing

/// The helpers that run `daq` and tools for these tests end, and take their children with them.
@Suite("test helpers end", .timeLimit(.minutes(20)))
struct HelperEndTests {
    /// 200 KiB to stderr while stdout stays open: read at once, or the child would block on a
    /// full stderr pipe (64 KiB) while the helper waited for stdout's end.
    @Test func toolReadsBothPipesAtOnce() throws {
        let r = try DAQBinary.tool(
            ["python3", "-c", "import sys; sys.stderr.write('e' * 204800); sys.stderr.flush(); print('done')"],
            timeout: 60)
        #expect(r.status == 0 && r.err.count == 204_800 && r.out == Data("done\n".utf8))
    }

    /// A `daq run` the test lets go of without finishing it, because it threw, is killed and
    /// reaped as it goes: none outlives `swift test`.
    @Test func aLiveRunLetGoOfWhenTheTestThrowsIsKilledAndReaped() throws {
        var pid: pid_t = 0
        #expect(throws: CancellationError.self) {
            let daq = try LiveProcess(["run", "pipelines/bench-engine.yaml", "--events", "jsonl", "--status", "never"])
            let running = daq.line { $0.contains(#""component":null"#) && $0.contains(#""to":"running""#) }
            try #require(running != nil, "\(daq.stderr)")
            pid = daq.process.processIdentifier
            #expect(!Process.hasEnded(pid))
            throw CancellationError()
        }
        #expect(pid != 0 && Process.hasEnded(pid), "daq (\(pid)) outlived its LiveProcess")
    }
}
