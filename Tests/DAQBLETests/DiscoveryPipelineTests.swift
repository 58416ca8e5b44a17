import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBLE

@Suite(.timeLimit(.minutes(20))) struct DiscoveryPipelineTests {
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

/// Discovery on captured bytes through the real path: btsnoop → `ble.replay` (HCI events,
/// advertising data) → `ble.discovery`.
@Suite(.timeLimit(.minutes(20))) struct DiscoveryCaptureTests {
    static let address: [UInt8] = [0xC0, 0xFF, 0xEE, 0x00, 0x00, 0x01]

    /// An Eddystone-TLM frame: battery in mV, temperature in 8.8 fixed point.
    static func tlm(battery: UInt16, temperature: Double) -> [UInt8] {
        let t = UInt16(bitPattern: Int16((temperature * 256).rounded()))
        return [0x02, 0x01, 0x06, 0x03, 0x03, 0xAA, 0xFE, 0x11, 0x16, 0xAA, 0xFE, 0x20, 0x00]
            + [UInt8(battery >> 8), UInt8(battery & 0xFF), UInt8(t >> 8), UInt8(t & 0xFF)]
            + [0, 0, 0, 1, 0, 0, 0, 2]
    }

    /// An iBeacon frame: Apple's manufacturer data, UUID, major 1, minor 2, -59 dBm at 1 m.
    static let iBeaconFrame: [UInt8] =
        [0x02, 0x01, 0x06, 0x1A, 0xFF, 0x4C, 0x00, 0x02, 0x15]
        + [0xE2, 0xC5, 0x6D, 0xB5, 0xDF, 0xFB, 0x48, 0xD2, 0xB0, 0x60, 0xD0, 0xF5, 0xA7, 0x10, 0x96, 0xE0]
        + [0x00, 0x01, 0x00, 0x02, 0xC5]

    func run(_ config: String) throws -> [Sample] {
        let t0 = 1_763_800_000.0
        let frames: [(Double, [UInt8])] = [
            (0, Self.tlm(battery: 3000, temperature: 20)), (1, Self.iBeaconFrame),
            (2, Self.tlm(battery: 2990, temperature: 21)),
            (5.5, Self.tlm(battery: 2985, temperature: 21)), (6, Self.iBeaconFrame),
            (9, Self.tlm(battery: 2980, temperature: 22)), (12.5, Self.tlm(battery: 2970, temperature: 23)),
        ]
        let capture = CaptureWriter.write(
            CaptureWriter.btsnoop(
                frames.map { (t0 + $0.0, CaptureWriter.advertisingEvent([(Self.address, 0x00, -60, $0.1)])) }),
            name: "tlm.btsnoop")
        let yaml = """
            name: disc
            clock: virtual
            sources: {radio: {type: ble.replay, path: "\(capture)"}}
            transforms: {discovery: {type: ble.discovery, inputs: [radio], scan_duration: 5 s, pause_between: 3 s\(config)}}
            sinks: {out: {type: collect, inputs: [discovery]}}
            """
        let outcome = try PipelineHarness.run(yaml: yaml, plugins: BLEPlugins.all)
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        return outcome.data("out")
    }

    @Test func reportsInThePauseAreCountedAndFieldsKeepTheFirstFrame() throws {
        let out = try run("")
        let records = out.filter { $0.kind == .data }
        #expect(
            records.map { $0["module"]?.stringValue ?? "" } == [
                "ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2", "ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2",
            ])
        #expect(records.map { $0["eddystone.tlm.battery_mv"] } == [.int(3000), .int(2980)])
        #expect(records.map { $0["frames"] } == [.int(3), .int(2)])
        let pause = try #require(out.first { $0["event"] == .string("ble.pause") })
        #expect(pause["reports"] == .int(2) && pause["window"] == .int(0) && pause.uptime == 8)
        #expect(
            out.filter { $0.kind == .event }.map { $0["event"]?.stringValue ?? "" } == [
                "ble.window", "ble.pause", "ble.window",
            ])
    }

    @Test func valuesLastKeepsTheLatestFrame() throws {
        let records = try run(", values: last").filter { $0.kind == .data }
        #expect(records.map { $0["eddystone.tlm.battery_mv"] } == [.int(2990), .int(2970)])
        #expect(records.map { $0["eddystone.tlm.temperature"] } == [.double(21), .double(23)])
    }
}
