import DAQCore
import DAQTesting
import Foundation
import Testing

/// The device recordings shipped under `recordings/` are made by the DAQTesting writers, so what
/// they hold is known sample by sample: the bytes in the repository are the writer's, exactly.
/// `DAQ_REGENERATE_RECORDINGS=1 swift test --filter ShippedRecordingTests` rewrites them.
@Suite(.timeLimit(.minutes(20))) struct ShippedRecordingTests {
    static let recordings = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recordings").path

    /// `recordings/wrist.gt3x`: three minutes of a wGT3X-BT at 30 Hz on a device clock at
    /// +01:00, with a 20-second idle-sleep span, as `pipelines/device-replay.yaml` replays it.
    static let wrist = GT3XWriter.with {
        $0.rate = 30
        $0.seconds = 180
        $0.start = 1_773_563_400  // 2026-03-15T08:30:00Z, 09:30 on the device
        $0.utcOffset = 3600
        $0.idleSleep = [60..<80]
        $0.activity = .activity
        $0.method = .deflated(level: 9)
        // A wrist at rest under gravity, swaying: about 1 g on z, a few tenths on x and y.
        $0.counts = { n in
            let t = Double(n) / 30
            return (Int(60 * sin(t * 1.9)), Int(45 * cos(t * 0.7)), 256 + Int(30 * sin(t * 5.3)))
        }
    }

    @Test func wristGT3XIsTheWritersOutput() throws {
        let shipped = Self.recordings + "/wrist.gt3x"
        let fresh = try Self.wrist.file()
        if ProcessInfo.processInfo.environment["DAQ_REGENERATE_RECORDINGS"] == "1" {
            try? FileManager.default.removeItem(atPath: shipped)
            try FileManager.default.copyItem(atPath: fresh, toPath: shipped)
        }
        #expect(FileManager.default.contentsEqual(atPath: shipped, andPath: fresh))
        let (samples, _) = try replayAll(shipped)
        expectRows(samples, Self.wrist.expectedRows(), "recordings/wrist.gt3x")
    }
}
