import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBLE

#if canImport(Glibc)
    import Glibc
#endif

@Suite(.timeLimit(.minutes(20))) struct ScanSourceTests {
    func source(_ fake: FakeController, _ yaml: String = "active: true\ninterval: 20 ms\nwindow: 10 ms") throws
        -> SourceHarness
    {
        let config = try PluginConfigLoader.decode(BLEScanSource.Configuration.self, yaml: yaml)
        let context = PluginContext(componentName: "scan", pipelineName: "test", baseDirectory: "", clock: .realtime)
        let fd = dup(fake.host)
        let s = try BLEScanSource(configuration: config, context: context, open: { fd })
        return try SourceHarness(s, name: "scan", clock: RunClock(mode: .realtime))
    }

    @Test func reportsFromTheControllerThroughTheSameReadPath() throws {
        let fake = try FakeController()
        defer { fake.close() }
        let h = try source(fake)
        fake.send([0x04] + CaptureTests.twoReports)
        let samples = try h.read(until: { $0.count >= 2 })
        h.stop()
        #expect(samples.map { $0["address"] } == [.string("C0:11:22:33:44:55"), .string("CB:B8:33:4C:88:4F")])
        #expect(samples[1]["ruuvi.temperature"] == .double(24.3))
        let commands = fake.commands.withLock { $0 }
        #expect(commands.count == 4)
        // Active scanning, 20 ms = 32 units, 10 ms = 16 units; scanning off again at stop.
        #expect(commands[1] == [0x01, 0x0B, 0x20, 0x07, 0x01, 0x20, 0x00, 0x10, 0x00, 0x00, 0x00])
        #expect(commands.last == [0x01, 0x0C, 0x20, 0x02, 0x00, 0x00])
    }

    @Test func aRefusalAtStartFailsWithTheReason() throws {
        let fake = try FakeController(statuses: [0x200C: 0x01])
        defer { fake.close() }
        #expect(throws: ScanError.self) { try source(fake) }
    }

    @Test func settingsAreChecked() {
        for bad in ["adapter: bt0", "interval: 1 ms", "window: 20 ms\ninterval: 10 ms", "interval: 11 s"] {
            #expect(throws: ConfigIssue.self, "\(bad)") {
                try PluginConfigLoader.decode(BLEScanSource.Configuration.self, yaml: bad)
            }
        }
    }
}
