import DAQCore
import DAQTesting
import Foundation
import Testing

@testable import DAQBLE

let beaconAddress: [UInt8] = [0xC0, 0x11, 0x22, 0x33, 0x44, 0x55]
let ruuviAddress: [UInt8] = [0xCB, 0xB8, 0x33, 0x4C, 0x88, 0x4F]

@Suite(.timeLimit(.minutes(20))) struct CaptureTests {
    func replay(_ path: String) throws -> (samples: [Sample], events: [PipelineEvent]) {
        let h = try SourceHarness(BLEReplaySource.self, config: "path: \"\(path)\"", name: "ble")
        let (samples, status) = try h.read()
        #expect(status == .finished)
        return (samples, h.events)
    }

    static let twoReports = CaptureWriter.advertisingEvent([
        (beaconAddress, 0x03, -60, hex(Vectors.iBeacon)), (ruuviAddress, 0x00, -72, hex(Vectors.ruuvi)),
    ])

    @Test(arguments: [UInt32(1002), 2001])
    func btsnoopWithSeveralReportsPerEvent(datalink: UInt32) throws {
        let bytes = CaptureWriter.btsnoop(
            [(1_700_000_000.25, Self.twoReports), (1_700_000_001.5, Self.twoReports)], datalink: datalink)
        let (samples, _) = try replay(CaptureWriter.write(bytes, name: "hci.log"))
        try #require(samples.count == 4)
        #expect(
            samples[0]["address"] == .string("C0:11:22:33:44:55")
                && samples[0]["event_type"] == .string("ADV_NONCONN_IND"))
        #expect(samples[0]["rssi"] == .int(-60) && samples[0]["ibeacon.major"] == .int(1))
        #expect(samples[1]["ruuvi.acceleration_z"] == .int(1036) && samples[1]["event_type"] == .string("ADV_IND"))
        #expect(samples.map(\.timestamp) == [1_700_000_000.25, 1_700_000_000.25, 1_700_000_001.5, 1_700_000_001.5])
        #expect(samples.map(\.uptime) == [0, 0, 1.25, 1.25])
        #expect(samples[0]["data"] == .string(Hex.string(hex(Vectors.iBeacon))))
    }

    @Test func extendedReports() throws {
        let e = CaptureWriter.extendedEvent(
            address: beaconAddress, eventType: 0x0001, tx: 8, rssi: -50, data: hex(Vectors.uid))
        let (samples, _) = try replay(CaptureWriter.write(CaptureWriter.btsnoop([(10, e)]), name: "ext.log"))
        #expect(samples.count == 1)
        #expect(
            samples.first?["event_type"] == .string("EXT_ADV(connectable)") && samples.first?["adv_tx_power"] == .int(8)
        )
        #expect(samples.first?["eddystone.namespace"] == .string("EDD1EBEAC04E5DEFA017"))
    }

    @Test func pcapH4() throws {
        let bytes = CaptureWriter.pcapH4([(1_700_000_000.000125, Self.twoReports)])
        let (samples, _) = try replay(CaptureWriter.write(bytes, name: "cap.pcap"))
        #expect(samples.count == 2 && samples[0]["ibeacon.minor"] == .int(2))
        #expect(abs(samples[0].timestamp - 1_700_000_000.000125) < 1e-6)
    }

    @Test func pcapngLinkLayerWithNanoseconds() throws {
        let packets = [
            (
                1_700_000_000.5,
                CaptureWriter.llPacket(pduType: 2, address: ruuviAddress, data: hex(Vectors.ruuvi), rssi: -67)
            ),
            // SCAN_REQ: no report
            (1_700_000_000.6, CaptureWriter.llPacket(pduType: 3, address: ruuviAddress, data: [], rssi: -67)),
            (
                1_700_000_000.7,
                CaptureWriter.llPacket(pduType: 4, address: beaconAddress, data: hex("05 09 4E6F6465"), rssi: -80)
            ),
        ]
        let (samples, _) = try replay(
            CaptureWriter.write(CaptureWriter.pcapng(linkType: 256, packets), name: "air.pcapng"))
        #expect(samples.map { $0["event_type"] } == [.string("ADV_NONCONN_IND"), .string("SCAN_RSP")])
        #expect(samples.map { $0["rssi"] } == [.int(-67), .int(-80)])
        #expect(
            samples[0]["address"] == .string("CB:B8:33:4C:88:4F") && samples[0]["address_type"] == .string("random"))
        #expect(samples[1]["name"] == .string("Node"))
        #expect(abs(samples[1].timestamp - 1_700_000_000.7) < 1e-6)
    }

    @Test func aTruncatedLastRecordIsReportedAndTheRecordsBeforeItKept() throws {
        var bytes = CaptureWriter.btsnoop([(1, Self.twoReports), (2, Self.twoReports)])
        bytes.removeLast(10)
        let path = CaptureWriter.write(bytes, name: "cut.log")
        let (samples, events) = try replay(path)
        #expect(samples.count == 2)
        let warnings = events.compactMap { if case .warning(_, let m) = $0 { m } else { nil } }
        #expect(
            warnings.first?.hasPrefix("\(path): byte ") == true
                && warnings.first?.contains("the last btsnoop record, of") == true)
    }

    /// Found by the fuzzer: a length field of 4 GiB made the reader try to allocate it.
    @Test func aLengthFieldPastTheEndOfTheFileIsNotAllocated() throws {
        var bytes = CaptureWriter.btsnoop([(1, Self.twoReports), (2, Self.twoReports)])
        let second = 16 + 24 + Self.twoReports.count + 1
        bytes.replaceSubrange((second + 4)..<(second + 8), with: CaptureWriter.be32(0xFFFF_FFF0))
        let path = CaptureWriter.write(bytes, name: "huge.log")
        let (samples, events) = try replay(path)
        #expect(samples.count == 2)
        #expect(
            events.contains {
                if case .warning(_, let m) = $0 {
                    m
                        == "\(path): byte \(second): the last btsnoop record, of 4294967280 bytes, is cut off (\(bytes.count - second) bytes)"
                } else {
                    false
                }
            })
    }

    /// Found by the fuzzer: a timestamp near Int64.min overflowed the epoch subtraction.
    @Test func aTimestampOutOfRangeIsReportedNotATrap() throws {
        var bytes = CaptureWriter.btsnoop([(1, Self.twoReports), (2, Self.twoReports)])
        let second = 16 + 24 + Self.twoReports.count + 1
        bytes.replaceSubrange((second + 16)..<(second + 20), with: CaptureWriter.be32(0x8000_0000))
        let path = CaptureWriter.write(bytes, name: "time.log")
        let (samples, events) = try replay(path)
        #expect(samples.count == 4)
        #expect(
            events.contains {
                if case .warning(_, let m) = $0 {
                    m.contains("byte \(second + 16): btsnoop timestamp") && m.contains("out of range")
                } else {
                    false
                }
            })
    }

    @Test func aMalformedEventNamesItsOffsetAndReadingGoesOn() throws {
        var bad = Self.twoReports
        bad[1] = 200  // event length past the end
        let path = CaptureWriter.write(CaptureWriter.btsnoop([(1, bad), (2, Self.twoReports)]), name: "bad.log")
        let (samples, events) = try replay(path)
        #expect(samples.count == 2)
        #expect(
            events.contains {
                if case .warning(_, let m) = $0 {
                    m == "\(path): byte 42: event length 200 runs past the \(Self.twoReports.count - 2) bytes present"
                } else {
                    false
                }
            })
    }

    static let badFiles: [([UInt8], String)] = {
        let notACapture: [UInt8] = Array("hello world, not a capture".utf8)
        let badDatalink: [UInt8] = Array("btsnoop\0".utf8) + CaptureWriter.be32(1) + CaptureWriter.be32(1234)
        let badLink: [UInt8] =
            CaptureWriter.le32(0xA1B2_C3D4) + [UInt8](repeating: 0, count: 16) + CaptureWriter.le32(1)
        return [
            ([], "too short for a capture (btsnoop, pcap or pcapng)"),
            (notACapture, "not a capture: expected the magic of btsnoop, pcap or pcapng, found 68656C6C"),
            (badDatalink, "btsnoop datalink 1234: expected 1001 (HCI), 1002 (H4) or 2001 (monitor)"),
            (badLink, "pcap link type 1: expected 201 (BLUETOOTH_HCI_H4_WITH_PHDR) or 256 (BLUETOOTH_LE_LL_WITH_PHDR)"),
        ]
    }()

    @Test(arguments: badFiles)
    func badFilesSayWhatTheyAre(bytes: [UInt8], reason: String) {
        let path = CaptureWriter.write(bytes, name: "x.log")
        do {
            _ = try replay(path)
            Issue.record("expected an error")
        } catch {
            #expect("\(error)".hasSuffix(reason), "\(error)")
        }
    }

    @Test func missingFileAndDirectory() {
        #expect(throws: CaptureError.self) { try replay("/nonexistent/capture.log") }
        #expect(throws: CaptureError.self) { try replay(FileManager.default.temporaryDirectory.path) }
    }
}
