import Foundation
import Testing

/// `daq batch` and SIGINT, with the real binary and a real signal. The first recording is a
/// FIFO: its run holds until the test writes, so the signal comes while it runs, known from
/// the FIFO's open (which returns once the run's source has opened it), never from a sleep.
@Suite("daq batch interrupted", .timeLimit(.minutes(20)))
struct BatchInterruptTests {
    @Test func anInterruptedBatchSaysSoAndLeavesNothingStale() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-batch-int-\(UUID().uuidString)")
        let recordings = dir.appendingPathComponent("rec")
        let out = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: recordings, withIntermediateDirectories: true)
        let pipeline = dir.appendingPathComponent("feat.yaml")
        try """
        name: feat
        clock: virtual
        sources:
          rec: {type: file, path: placeholder.jsonl}
        sinks:
          log: {type: logger.jsonl, inputs: [rec], directory: out}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let fifo = recordings.appendingPathComponent("a.jsonl").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let rows = (0..<5).map { "{\"t\": \($0), \"v\": \($0 * 2)}\n" }.joined()
        for name in ["b", "c"] {
            try rows.write(to: recordings.appendingPathComponent("\(name).jsonl"), atomically: true, encoding: .utf8)
        }
        let batch = try LiveProcess([
            "batch", pipeline.path, "--input", recordings.path + "/*.jsonl", "--output", out.path, "--jobs", "1",
            "--progress", "never",
        ])

        // Opening the FIFO to write returns once the run of a.jsonl has opened it to read. A
        // batch that never opens it must fail the test, not hang it: after a minute a reader
        // of our own lets the open return, and the checks below fail.
        let opened = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            if opened.wait(timeout: .now() + 60) == .timedOut { _ = open(fifo, O_RDONLY | O_NONBLOCK) }
        }
        let writer = open(fifo, O_WRONLY)
        opened.signal()
        try #require(writer >= 0)
        _ = rows.withCString { write(writer, $0, strlen($0)) }
        let runs = try FileManager.default.contentsOfDirectory(atPath: out.appendingPathComponent("a").path)
        #expect(runs.count == 1 && runs[0].hasPrefix("feat-"), "the run of a.jsonl is under way: \(runs)")

        kill(batch.process.processIdentifier, SIGINT)
        let said = batch.line { $0.contains("interrupted: cancelling") }
        #expect(said != nil, "\(batch.stderr)")
        close(writer)  // the run's source reads to the end and sees it was cancelled
        let status = batch.finish()
        // Its last line: the pipe's reader may still be behind the process's exit.
        let last = batch.line { $0.contains("daq: batch interrupted") }
        let stderr = batch.stderr
        #expect(last != nil, "\(stderr)")

        // 130 is an exit status (reapExitStatus gives a signal's number for a death by signal);
        // Foundation's terminationReason traps here, since LiveProcess reaps the child itself.
        #expect(status == 130, "\(stderr)")
        #expect(stderr.contains("a.jsonl") && stderr.contains("interrupted"), "\(stderr)")
        #expect(
            stderr.contains("3 recordings: 0 finished, 0 skipped (already done), 0 failed, 1 interrupted, 2 not run"),
            "\(stderr)")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        #expect(left.isEmpty, "no folder is left for the interrupted or unstarted recordings: \(left)")

        // The next batch finds nothing stale: each recording gets one finished run directory.
        try FileManager.default.removeItem(atPath: fifo)
        try rows.write(toFile: fifo, atomically: true, encoding: .utf8)
        let rerun = try DAQBinary.run([
            "batch", pipeline.path, "--input", recordings.path + "/*.jsonl", "--output", out.path, "--jobs", "1",
            "--progress", "never",
        ])
        #expect(rerun.status == 0, "\(rerun.err)")
        for name in ["a", "b", "c"] {
            let folder = out.appendingPathComponent(name).path
            let entries = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
            #expect(
                entries.count == 2 && entries[0] == "batch.json" && entries[1].hasPrefix("feat-"), "\(name): \(entries)"
            )
            let manifest = try Data(contentsOf: URL(fileURLWithPath: folder + "/" + entries[1] + "/manifest.json"))
            #expect(String(decoding: manifest, as: UTF8.self).contains("\"status\":\"finished\""))
        }
    }
}
