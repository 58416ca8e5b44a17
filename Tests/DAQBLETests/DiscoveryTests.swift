import DAQCore
import DAQTesting
import Testing

@testable import DAQBLE

/// A decoded advertising report as a sample, with the fields discovery reads.
func report(_ t: Double, _ address: String, rssi: Double, _ extra: Fields = [:]) -> Sample {
    var f: Fields = ["address": .string(address), "rssi": .double(rssi)]
    for (k, v) in extra.pairs { f[k] = v }
    return Sample(timestamp: 1_700_000_000 + t, uptime: t, fields: f)
}

let iBeacon: Fields = [
    "frames": .array(["ibeacon"]), "ibeacon.uuid": "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0", "ibeacon.major": 1,
    "ibeacon.minor": 2, "ibeacon.measured_power": -59,
]
let tlm: Fields = [
    "frames": .array(["eddystone.tlm"]), "eddystone.tlm.battery_mv": 3000, "eddystone.tlm.temperature": 21.5,
]

@Suite(.timeLimit(.minutes(20))) struct DiscoveryTests {
    func windows(_ samples: [Sample], config: String = "scan_duration: 10 s") throws -> [Sample] {
        let h = try TransformHarness(DiscoveryTransform.self, config: config, name: "discovery")
        return try h.push(samples) + (try h.finish())
    }

    @Test func oneRecordPerModuleWithEveryFrameTypeMerged() throws {
        let out = try windows([
            report(1, "AA:BB:CC:DD:EE:01", rssi: -60, iBeacon),
            report(2, "AA:BB:CC:DD:EE:01", rssi: -70, tlm),
            report(
                3, "AA:BB:CC:DD:EE:02", rssi: -80,
                [
                    "frames": .array(["eddystone.uid"]), "eddystone.namespace": "EDD1EBEAC04E5DEFA017",
                    "eddystone.instance": "0BDB87539B67",
                ]),
            report(4, "AA:BB:CC:DD:EE:01", rssi: -50, iBeacon),
            report(12, "AA:BB:CC:DD:EE:02", rssi: -81),
        ])
        let first = out.filter { $0["window"] == .int(0) && $0.kind == .data }
        #expect(first.count == 2)
        let beacon = try #require(first.first)
        #expect(beacon["module"] == .string("ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2"))
        #expect(beacon["frames"] == .int(3))
        #expect(beacon["frame_types"] == .array(["ibeacon", "eddystone.tlm"]))
        #expect(
            beacon["rssi_last"] == .double(-50) && beacon["rssi_max"] == .double(-50)
                && beacon["rssi_mean"] == .double(-60))
        #expect(beacon["first_seen"] == .double(1_700_000_001) && beacon["last_seen"] == .double(1_700_000_004))
        #expect(beacon["eddystone.tlm.battery_mv"] == .int(3000))
        // Mean RSSI -60 against -59 at 1 m, n = 2: 10^(1/20) m.
        #expect(beacon["distance_m"] == .double(1.12))
        #expect(first.allSatisfy { $0.uptime == 10 })
        let end = try #require(out.first { $0.kind == .event && $0["window"] == .int(0) })
        #expect(end["event"] == .string("ble.window") && end["count"] == .int(2))
        #expect(out.last?["partial"] == .bool(true) && out.last?["count"] == .int(1))
    }

    @Test func framesBeforeTheIdentityJoinTheModule() throws {
        let out = try windows([
            report(1, "AA:BB:CC:DD:EE:01", rssi: -70, tlm), report(2, "AA:BB:CC:DD:EE:01", rssi: -60, iBeacon),
        ])
        let records = out.filter { $0.kind == .data }
        #expect(records.count == 1)
        #expect(
            records.first?["frame_types"] == .array(["eddystone.tlm", "ibeacon"]) && records.first?["frames"] == .int(2)
        )
    }

    @Test func anEmptyWindowStillReportsCountZero() throws {
        let h = try TransformHarness(DiscoveryTransform.self, config: "scan_duration: 5 s", name: "discovery")
        _ = try h.push([report(1, "AA:BB:CC:DD:EE:01", rssi: -60)])
        let ticked = try h.transform.tick(now: 15, context: h.context).samples
        #expect(ticked.filter { $0.kind == .data }.map { $0["module"] } == [.string("AA:BB:CC:DD:EE:01")])
        let events = ticked.filter { $0.kind == .event }
        #expect(events.map { $0["count"] } == [.int(1), .int(0), .int(0)])
        #expect(events.map(\.uptime) == [5, 10, 15])
    }

    @Test func thresholdAndPauseLeaveReportsOut() throws {
        let out = try windows(
            [
                report(1, "A", rssi: -95), report(2, "B", rssi: -60), report(6, "C", rssi: -60),
                report(9, "D", rssi: -60),
            ],
            config: "scan_duration: 5 s\npause_between: 3 s\nrssi_threshold: -90")
        let records = out.filter { $0.kind == .data }
        #expect(records.map { $0["module"] } == [.string("B"), .string("D")])
        let ends = out.filter { $0.kind == .event && $0["event"] == .string("ble.window") }
        #expect(ends.first?["below_threshold"] == .int(1))
        // On the capture's time base: its dates, as the reports' timestamps have them.
        #expect(ends.map { $0["window_start"] } == [.double(1_700_000_000), .double(1_700_000_008)])
        // C fell in the pause: no module has it, and the pause says so.
        let pauses = out.filter { $0["event"] == .string("ble.pause") }
        #expect(pauses.count == 1)
        #expect(pauses.first?["reports"] == .int(1) && pauses.first?["window"] == .int(0))
        #expect(
            pauses.first?["pause_start"] == .double(1_700_000_005)
                && pauses.first?["pause_end"] == .double(1_700_000_008)
                && pauses.first?.uptime == 8)
        #expect(
            out.filter { $0.kind == .event }.map { $0["event"]?.stringValue ?? "" } == [
                "ble.window", "ble.pause", "ble.window",
            ])
    }

    @Test func everyPauseIsReportedEvenEmptyAndOnlyWithAPause() throws {
        let h = try TransformHarness(
            DiscoveryTransform.self, config: "scan_duration: 5 s\npause_between: 5 s", name: "discovery")
        _ = try h.push([report(1, "A", rssi: -60)])
        let ticked = try h.transform.tick(now: 20, context: h.context).samples
        #expect(
            ticked.map { "\($0["event"]?.stringValue ?? "") \($0.uptime)" } == [
                " 5.0", "ble.window 5.0", "ble.pause 10.0", "ble.window 15.0", "ble.pause 20.0",
            ])
        #expect(
            try windows([report(1, "A", rssi: -60), report(12, "A", rssi: -60)]).allSatisfy {
                $0["event"] != .string("ble.pause")
            })
    }

    @Test func valuesFirstOrLast() throws {
        let frames = [
            report(1, "A", rssi: -60, ["eddystone.tlm.battery_mv": 3000, "tx_power": -4]),
            report(
                2, "A", rssi: -60,
                ["eddystone.tlm.battery_mv": 2990, "eddystone.tlm.temperature": 21.5, "tx_power": -8]),
        ]
        let first = try windows(frames).first { $0.kind == .data }
        #expect(first?["eddystone.tlm.battery_mv"] == .int(3000) && first?["tx_power"] == .double(-4))
        #expect(first?["eddystone.tlm.temperature"] == .double(21.5), "a field first seen later is kept too")
        let last = try windows(frames, config: "values: last").first { $0.kind == .data }
        #expect(last?["eddystone.tlm.battery_mv"] == .int(2990) && last?["tx_power"] == .double(-8))
        #expect(throws: (any Error).self) { try TransformHarness(DiscoveryTransform.self, config: "values: latest") }
    }

    @Test func identifyByAddressKeepsFramesApartByAddressOnly() throws {
        let out = try windows(
            [report(1, "X", rssi: -60, iBeacon), report(2, "Y", rssi: -60, iBeacon)], config: "identify_by: address")
        #expect(out.filter { $0.kind == .data }.map { $0["module"] } == [.string("X"), .string("Y")])
        let merged = try windows(
            [report(1, "X", rssi: -60, iBeacon), report(2, "Y", rssi: -60, iBeacon)], config: "identify_by: ibeacon")
        #expect(merged.filter { $0.kind == .data }.count == 1)
    }

    @Test func settingsAreChecked() {
        for bad in [
            "scan_duration: 0 s", "pause_between: -1 s", "rssi_threshold: 50", "path_loss_exponent: 0.5",
            "identify_by: name",
        ] {
            #expect(throws: (any Error).self, "\(bad)") { try TransformHarness(DiscoveryTransform.self, config: bad) }
        }
    }
}
