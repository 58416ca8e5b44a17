import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBLE

/// Captures read by tshark (Wireshark), a reader we did not write: the project's shipped capture,
/// the btsnoop files `BTSnoopWriter` makes for `daq test`, and the btsnoop, pcap and pcapng files
/// the tests write. Every advertising report tshark finds, `ble.replay` finds too, with the same
/// time, address, RSSI, event type and data length.
@Suite("captures read by tshark", .timeLimit(.minutes(20)))
struct TsharkTests {
    struct Report: Equatable, CustomStringConvertible {
        var time: Double
        var address: String
        var rssi: Int
        var type: String
        var length: Int

        var description: String { "\(time) \(address) \(rssi) dBm \(type) \(length) bytes" }

        static func == (a: Report, b: Report) -> Bool {
            abs(a.time - b.time) < 1e-6 && a.address == b.address && a.rssi == b.rssi && a.type == b.type
                && a.length == b.length
        }
    }

    /// The legacy advertising report's event types, by their code (Core Specification, Vol 4, Part E, 7.7.65.2),
    /// and the link layer's advertising PDU types (Vol 6, Part B, 2.3).
    static let hciTypes = [
        "0x00": "ADV_IND", "0x01": "ADV_DIRECT_IND", "0x02": "ADV_SCAN_IND", "0x03": "ADV_NONCONN_IND",
        "0x04": "SCAN_RSP",
    ]
    static let pduTypes = [
        "0x00": "ADV_IND", "0x01": "ADV_DIRECT_IND", "0x02": "ADV_NONCONN_IND", "0x04": "SCAN_RSP",
        "0x06": "ADV_SCAN_IND",
    ]

    /// tshark's fields of every frame of `path`; a field that occurs more than once (one per
    /// report of an event) is split into its occurrences.
    static func tshark(_ path: String, _ fields: [String], filter: String) throws -> [[[String]]] {
        let r = try Process.runToEnd(
            "tshark", ["-r", path, "-Y", filter, "-T", "fields"] + fields.flatMap { ["-e", $0] }, timeout: 120)
        try #require(
            r.status == 0,
            "tshark failed (apt-get install -y tshark; scripts/test.sh installs it): \(r.errors.suffix(1500))")
        return r.output.split(separator: "\n").map { line in
            line.split(separator: "\t", omittingEmptySubsequences: false).map {
                $0.split(separator: ",").map(String.init)
            }
        }
    }

    /// The reports of an HCI capture (btsnoop, pcap of H4) as tshark reads them.
    static func hciReports(_ path: String) throws -> [Report] {
        let frames = try tshark(
            path,
            [
                "frame.time_epoch", "bthci_evt.bd_addr", "bthci_evt.rssi", "bthci_evt.le_advts_event_type",
                "bthci_evt.data_length",
            ], filter: "bthci_evt.le_meta_subevent == 0x02")
        return try frames.flatMap { f in
            try #require(f.count == 5 && Set(f[1...].map(\.count)).count == 1, "\(f)")
            return (0..<f[1].count).map { i in
                Report(
                    time: Double(f[0][0]) ?? .nan, address: f[1][i].uppercased(), rssi: Int(f[2][i]) ?? 0,
                    type: hciTypes[f[3][i]] ?? f[3][i], length: Int(f[4][i]) ?? -1)
            }
        }
    }

    /// The reports of a link-layer capture (pcapng of BLUETOOTH_LE_LL_WITH_PHDR) as tshark reads them.
    static func linkLayerReports(_ path: String) throws -> [Report] {
        let frames = try tshark(
            path,
            [
                "frame.time_epoch", "btle.advertising_address", "btle_rf.signal_dbm",
                "btle.advertising_header.pdu_type", "btle.length",
            ], filter: "btle.advertising_header.pdu_type != 0x03")
        return frames.map { f in
            // The PDU's length holds the 6-byte address before the advertising data.
            Report(
                time: Double(f[0].first ?? "") ?? .nan, address: (f[1].first ?? "").uppercased(),
                rssi: Int(f[2].first ?? "") ?? 0, type: pduTypes[f[3].first ?? ""] ?? (f[3].first ?? ""),
                length: (Int(f[4].first ?? "") ?? -1) - 6)
        }
    }

    /// The reports `ble.replay` reads from `path`.
    static func ours(_ path: String) throws -> [Report] {
        let h = try SourceHarness(BLEReplaySource.self, config: "path: \"\(path)\"", name: "ble")
        let (samples, status) = try h.read()
        #expect(status == .finished)
        return samples.map { s in
            Report(
                time: s.timestamp, address: s["address"]?.stringValue ?? "", rssi: Int(s["rssi"]?.intValue ?? 0),
                type: s["event_type"]?.stringValue ?? "", length: (s["data"]?.stringValue?.count ?? -2) / 2)
        }
    }

    static func expectSame(_ ours: [Report], _ theirs: [Report], _ what: String) {
        #expect(ours.count == theirs.count, "\(what): \(ours.count) reports here, \(theirs.count) by tshark")
        let differ = zip(ours, theirs).enumerated().filter { $0.element.0 != $0.element.1 }
        #expect(
            differ.isEmpty,
            "\(what): \(differ.prefix(3).map { "#\($0.offset) here \($0.element.0), tshark \($0.element.1)" })")
    }

    /// Advertising events of every vector, two reports in each, a second apart.
    static let events: [(time: Double, event: [UInt8])] = [
        Vectors.iBeacon, Vectors.uid, Vectors.url, Vectors.tlm, Vectors.altBeacon, Vectors.ruuvi,
    ].enumerated().map { i, v in
        (
            1_700_000_000.25 + Double(i),
            CaptureWriter.advertisingEvent([
                (beaconAddress, UInt8(i % 5), Int8(-40 - i), hex(v)), (ruuviAddress, 0x00, -72, hex(Vectors.ruuvi)),
            ])
        )
    }

    @Test func theShippedCapture() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("recordings/beacons.btsnoop").path
        let theirs = try Self.hciReports(path)
        #expect(theirs.count == 449, "the reports tshark finds in recordings/beacons.btsnoop")
        Self.expectSame(try Self.ours(path), theirs, "beacons.btsnoop")
    }

    /// What `daq test` feeds `ble.replay`: a capture made by `BTSnoopWriter`.
    @Test func theCapturesBTSnoopWriterMakes() throws {
        let bytes = BTSnoopWriter.capture(Self.events.map { BTSnoopWriter.Event(time: $0.time, bytes: $0.event) })
        let path = CaptureWriter.write(bytes, name: "writer.log")
        let theirs = try Self.hciReports(path)
        #expect(theirs.count == 2 * Self.events.count)
        Self.expectSame(try Self.ours(path), theirs, "BTSnoopWriter")
    }

    @Test(arguments: ["btsnoop", "btsnoop-monitor", "pcap"])
    func theCapturesTheTestsWrite(_ format: String) throws {
        let bytes =
            switch format {
            case "btsnoop": CaptureWriter.btsnoop(Self.events)
            case "btsnoop-monitor": CaptureWriter.btsnoop(Self.events, datalink: 2001)
            default: CaptureWriter.pcapH4(Self.events)
            }
        let path = CaptureWriter.write(bytes, name: "capture.\(format)")
        let theirs = try Self.hciReports(path)
        #expect(theirs.count == 2 * Self.events.count)
        Self.expectSame(try Self.ours(path), theirs, format)
    }

    @Test func aLinkLayerPcapng() throws {
        let packets = [Vectors.iBeacon, Vectors.uid, Vectors.ruuvi].enumerated().map { i, v in
            (
                1_700_000_000.5 + Double(i) * 0.125,
                CaptureWriter.llPacket(
                    pduType: [0, 2, 6][i], address: i == 2 ? ruuviAddress : beaconAddress, data: hex(v),
                    rssi: Int8(-60 - i))
            )
        }
        // A SCAN_REQ between them, which carries no report.
        let scanRequest = (
            1_700_000_000.6, CaptureWriter.llPacket(pduType: 3, address: ruuviAddress, data: [], rssi: -67)
        )
        let path = CaptureWriter.write(
            CaptureWriter.pcapng(linkType: 256, [packets[0], scanRequest, packets[1], packets[2]]), name: "air.pcapng")
        let theirs = try Self.linkLayerReports(path)
        #expect(theirs.count == 3)
        Self.expectSame(try Self.ours(path), theirs, "pcapng")
    }
}
