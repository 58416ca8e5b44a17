import DAQTesting
import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `daq run` with `calibration: auto` reads the recording once before the run (its first pass):
/// a signal then cancels at once, with exit 130 and nothing written, rather than killing the
/// process or waiting for the whole recording to be read.
@Suite("daq run: a signal during the first pass", .timeLimit(.minutes(20)))
struct FirstPassSignalTests {
    @Test func aSignalDuringTheFirstPassCancelsWithNothingWritten() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-firstpass-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        // A FIFO holds the first pass in its read for as long as the test keeps it open: the
        // signal surely comes while the pass is under way, with no timing involved.
        let fifo = dir.appendingPathComponent("wrist.csv").path
        try #require(mkfifo(fifo, 0o600) == 0)
        let output = dir.appendingPathComponent("out").path
        let pipeline = dir.appendingPathComponent("calibrated.yaml")
        try """
        name: calibrated
        clock: virtual
        sources:
          wrist: {type: motion.replay, path: "\(fifo)", format: csv}
        transforms:
          cal: {type: motion.calibrate, inputs: [wrist], calibration: auto}
        sinks:
          log: {type: logger.csv, inputs: [cal], directory: "\(output)"}
        """.write(to: pipeline, atomically: true, encoding: .utf8)

        let daq = try LiveProcess(["run", pipeline.path, "--status", "never"])
        // Opening blocks until the first pass opens the FIFO to read it.
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        try writer.writeWithoutSIGPIPE(Data("t,x,y,z\n0,0,0,1\n0.01,0,0,1\n".utf8))
        try #require(daq.line { $0.contains("first pass: reading its input once before the run") } != nil)
        kill(daq.process.processIdentifier, SIGINT)
        try #require(daq.line { $0.contains("daq: stopping while the run starts") } != nil, "\(daq.stderr)")
        // The pass, told to stop, ends at its next read: the end of the FIFO.
        try writer.close()
        let status = daq.finish()

        #expect(status == 130, "stderr: \(daq.stderr)")
        #expect(
            daq.stderr.contains("daq: cancelled \(pipeline.path): transforms.cal: stopped during the first pass"),
            "\(daq.stderr)")
        #expect(!FileManager.default.fileExists(atPath: output), "no run directory is made before the run begins")
    }
}
