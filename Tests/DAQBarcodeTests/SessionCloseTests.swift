import DAQCore
import DAQTesting
import Dispatch
import Foundation
import Synchronization
import Testing

@testable import DAQBarcode

#if canImport(Glibc)
    import Glibc
#endif

/// A run that ends before its scanner's input does still closes every session: `scan.cancel`
/// (`reason: stopped`) then `scan.stop`, at the run-clock time of the end.
@Suite(.serialized, .timeLimit(.minutes(20))) struct SessionCloseTests {
    /// Runs `yaml`, calls `act` once the tap is in place, stops the run as soon as `scanner`
    /// has emitted a `scan.start` (10 s at most), and returns what reached `scans`.
    func stopAtFirstStart(
        _ yaml: String, act: @escaping @Sendable (PipelineRun) -> Void = { _ in }
    ) throws -> [Sample] {
        let sawStart = Mutex(false)
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: BarcodePlugins.all) { run in
            let started = DispatchSemaphore(value: 0)
            run.observe(component: "scanner") { batch in
                if (0..<batch.count).contains(where: { batch.value("event", at: $0) == .string("scan.start") }) {
                    started.signal()
                }
            }
            act(run)
            let seen = started.wait(timeout: .now() + 10) == .success
            sawStart.withLock { $0 = seen }
            run.stop()
        }
        #expect(sawStart.withLock { $0 }, "the scanner opened a session before the stop")
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        return outcome.data("scans")
    }

    /// `event#session (reason)` without times, and whether the closing pair shares one time.
    func closes(_ samples: [Sample]) -> [String] {
        timeline(samples).map { $0.replacingOccurrences(of: #"@\d+"#, with: "", options: .regularExpression) }
    }

    static let stopped = ["scan.start#1", "scan.cancel#1 (stopped)", "scan.stop#1"]

    /// The log goes on after the trigger (the source is still reading), or ends with it (the
    /// source has finished and its session's timeout waits, not yet due).
    /// (The log's times count from its first line, a cancel with nothing open, so the trigger
    /// comes 0.3 s into the run, after the test's tap is in place.)
    @Test(arguments: [
        #"{"timestamp": 0, "event": "cancel"}\#n{"timestamp": 0.3, "event": "trigger"}\#n"#
            + #"{"timestamp": 20, "code": "late"}"#,
        #"{"timestamp": 0, "event": "cancel"}\#n{"timestamp": 0.3, "event": "trigger"}"#,
    ])
    func replayStoppedWithASessionOpen(log: String) throws {
        let path = file("scans.jsonl", log + "\n")
        let scans = try stopAtFirstStart(
            """
            name: stop
            clock: replay
            sources:
              scanner: {type: barcode.replay, path: "\(path)", mode: triggered, timeout: 30 s}
            sinks:
              scans: {type: collect, inputs: [scanner]}
            """)
        try #require(closes(scans) == Self.stopped)
        #expect(sessionsAreWellFormed(scans))
        // The cancel and the stop share the stop's time, after the start and before the log's end.
        #expect(scans[1].uptime == scans[2].uptime && scans[1].uptime >= scans[0].uptime && scans[1].uptime < 20)
    }

    @Test func serialStoppedWithASessionOpen() throws {
        let port = try FakeScannerPort()
        let scans = try stopAtFirstStart(
            """
            name: stop
            clock: realtime
            sources:
              scanner: {type: barcode.serial, device: "\(port.link)", mode: triggered, timeout: 30 s}
            sinks:
              scans: {type: collect, inputs: [scanner]}
            """, act: { $0.send(ControlCommand("trigger")) })
        #expect(closes(scans) == Self.stopped)
        #expect(sessionsAreWellFormed(scans))
    }

    @Test func hidStoppedInTheMiddleOfACode() throws {
        let fifo = tempDirectory() + "/event5"
        try #require(mkfifo(fifo, 0o600) == 0)
        let writer = open(fifo, O_RDWR)  // held open so the source never sees end of input
        defer { close(writer) }
        let scans = try stopAtFirstStart(
            """
            name: stop
            clock: realtime
            sources:
              scanner: {type: barcode.hid, device: "\(fifo)", grab: false}
            sinks:
              scans: {type: collect, inputs: [scanner]}
            """,
            act: { _ in
                let typed = Keys.tap(5) + Keys.tap(11)  // "40", and no Enter: the code is still coming
                _ = write(writer, typed, typed.count)
            })
        #expect(closes(scans) == Self.stopped)
        #expect(sessionsAreWellFormed(scans))
    }

    static let twoSessions = """
        {"timestamp": 0, "event": "trigger"}
        {"timestamp": 0.5, "code": "A"}
        {"timestamp": 2, "event": "trigger"}
        {"timestamp": 3, "code": "B"}

        """

    /// `--duration 3` ends the run at 3.0 s of run clock: the session open then closes at 3.0,
    /// though the source had already read the code that ends it at 3.0 (not admitted).
    @Test(arguments: ["virtual", "replay"])
    func durationClosesTheOpenSessionAtItsEnd(clock: String) throws {
        let path = file("scans.jsonl", Self.twoSessions)
        let outcome = try PipelineHarness.run(
            yaml: """
                name: duration
                clock: \(clock)
                speed: 10
                sources:
                  scanner: {type: barcode.replay, path: "\(path)", mode: triggered, timeout: 5 s}
                sinks:
                  scans: {type: collect, inputs: [scanner]}
                """, plugins: BarcodePlugins.all, options: RunOptions(duration: 3, flushInterval: 0))
        #expect(
            timeline(outcome.data("scans")) == [
                "scan.start#1@0", "scan.data#1@500 A", "scan.stop#1@500",
                "scan.start#2@2000", "scan.cancel#2@3000 (stopped)", "scan.stop#2@3000",
            ])
    }

    /// `--max-samples` may cut a session anywhere, even between its outcome and its stop.
    @Test(arguments: [
        (1, ["scan.start#1@0", "scan.cancel#1@0 (stopped)", "scan.stop#1@0"]),
        (2, ["scan.start#1@0", "scan.data#1@0 A", "scan.stop#1@0"]),
        (
            4,
            [
                "scan.start#1@0", "scan.data#1@0 A", "scan.stop#1@0",
                "scan.start#2@1000", "scan.cancel#2@1000 (stopped)", "scan.stop#2@1000",
            ]
        ),
    ])
    func maxSamplesClosesWhatItCut(max: Int, expected: [String]) throws {
        let path = file("scans.jsonl", "{\"timestamp\": 0, \"code\": \"A\"}\n{\"timestamp\": 1, \"code\": \"B\"}\n")
        let outcome = try PipelineHarness.run(
            yaml: """
                name: max
                sources:
                  scanner: {type: barcode.replay, path: "\(path)"}
                sinks:
                  scans: {type: collect, inputs: [scanner]}
                """, plugins: BarcodePlugins.all, options: RunOptions(maxSamples: max, flushInterval: 0))
        #expect(timeline(outcome.data("scans")) == expected)
    }

    /// A log that ends with a session open and no timeout closes it at its last time.
    @Test func endOfInputCancelsASessionWithoutATimeout() throws {
        let path = file("scans.jsonl", #"{"timestamp": 0, "code": "A"}\#n{"timestamp": 1, "event": "trigger"}\#n"#)
        let h = try SourceHarness(ReplayScannerSource.self, config: "path: \"\(path)\"", name: "scanner")
        let (samples, status) = try h.read()
        #expect(status == .finished)
        #expect(
            timeline(samples) == [
                "scan.start#1@0", "scan.data#1@0 A", "scan.stop#1@0",
                "scan.start#2@1000", "scan.cancel#2@1000 (end of input)", "scan.stop#2@1000",
            ])
        #expect(h.events.warnings.isEmpty, "nothing was lost: \(h.events.warnings)")
    }
}
