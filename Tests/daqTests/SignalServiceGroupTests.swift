import Foundation
import Testing

extension SignalTests {
    /// `daq run` runs its pipeline as a `Service` in a swift-service-lifecycle `ServiceGroup`:
    /// the group's debug log shows the first signal shutting the run's service down gracefully,
    /// and the run then stops gracefully (exit 0, a finished summary). `daq`'s signal handler is
    /// the one trap, so it has said the run is stopping before the group acts, however loaded
    /// the machine (with the group trapping too, its trap could end the run first).
    @Test func theFirstSignalStopsTheRunThroughItsServiceGroup() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-group-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pipeline = dir.appendingPathComponent("endless.yaml")
        try """
        name: endless
        clock: realtime
        sources:
          gen: {type: generator, signal: sine, rate: 200}
        sinks:
          discard: {type: null, inputs: [gen]}
        """.write(to: pipeline, atomically: true, encoding: .utf8)
        let daq = try LiveProcess([
            "run", pipeline.path, "--status", "never", "--no-control", "--log-level", "debug",
        ])
        // The group logs this once it has set up its signal handlers and starts the run.
        let started = daq.line { $0 == "daq: debug: Starting service" }
        #expect(started != nil, "stderr: \(daq.stderr)")
        kill(daq.process.processIdentifier, SIGTERM)
        let status = daq.finish()
        let stderr = daq.stderr
        #expect(status == 0, "stderr: \(stderr.suffix(2000))")
        #expect(stderr.contains("Triggering graceful shutdown for service"), "stderr: \(stderr.suffix(2000))")
        #expect(stderr.contains("daq: stopping: draining buffers and closing sinks"))
        #expect(stderr.contains("endless: finished"))
    }
}
