import DAQCore
import DAQTesting
import Testing

@testable import DAQBarcode

/// A live scanner keeps no queue or timer of its own: the device watch and the wake at a
/// session's timeout are its stage's, and end with it.
@Suite(.serialized, .timeLimit(.minutes(20))) struct ScannerTasksTests {
    @Test func theDeviceWatchAndTheSessionTimeoutAreTheStagesAndEndWithIt() throws {
        let port = try FakeScannerPort()
        let h = try SerialScannerTests().scanner(port, "mode: triggered\ntimeout: 30 s")
        #expect(h.context.runningTaskCount == 1, "the device is watched through the context")
        h.send(ControlCommand("trigger"))
        _ = try h.read(until: { $0.contains { $0.event == "scan.start" } })
        #expect(h.context.runningTaskCount == 2, "the session's timeout is a wake of the stage's")
        h.stop()
        #expect(h.context.runningTaskCount == 0)
    }
}
