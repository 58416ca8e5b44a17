@testable import DAQBLE
import DAQCore
import DAQTesting
import Foundation
import Testing

@Suite struct DiscoveryPipelineTests {
    static let capture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("recordings/beacons.btsnoop").path

    func run(clock: String) throws -> [String] {
        let yaml = """
            name: disc
            clock: \(clock)
            speed: 2000
            sources: {radio: {type: ble.replay, path: "\(Self.capture)"}}
            transforms: {discovery: {type: ble.discovery, inputs: [radio], scan_duration: 10 s, rssi_threshold: -90}}
            sinks: {out: {type: collect, inputs: [discovery]}}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: BLEPlugins.all)
        #expect(outcome.result.state == .finished)
        return outcome.data("out").map { s in
            "\(s.uptime) \(s["module"]?.stringValue ?? "window") \(s["frames"]?.intValue ?? s["count"]?.intValue ?? -1)"
        }
    }

    /// The same capture gives the same windows as fast as possible and replayed far faster
    /// than the source can keep up with its clock.
    @Test func replayedFastOrVirtualTheWindowsAreTheSame() throws {
        let virtual = try run(clock: "virtual")
        #expect(virtual.filter { $0.contains(" window ") }.count == 6)
        #expect(virtual.contains("10.0 ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2 21"))
        #expect(try run(clock: "replay") == virtual)
    }
}
