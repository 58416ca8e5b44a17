import Foundation

@testable import DAQBLE

/// Writes capture files the way btmon, Android and Wireshark do, for the readers to read back.
enum CaptureWriter {
    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
    static func le32(_ v: UInt32) -> [UInt8] { be32(v).reversed() }
    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    /// An LE Advertising Report event (code first) holding `reports` (address MSB first).
    static func advertisingEvent(_ reports: [(address: [UInt8], type: UInt8, rssi: Int8, data: [UInt8])]) -> [UInt8] {
        var params: [UInt8] = [0x02, UInt8(reports.count)]
        for r in reports {
            params +=
                [r.type, 0x00] + r.address.reversed() + [UInt8(r.data.count)] + r.data + [UInt8(bitPattern: r.rssi)]
        }
        return [0x3E, UInt8(params.count)] + params
    }

    /// An LE Extended Advertising Report event with one report.
    static func extendedEvent(address: [UInt8], eventType: UInt16, tx: Int8, rssi: Int8, data: [UInt8]) -> [UInt8] {
        var params: [UInt8] = [0x0D, 1] + le16(eventType) + [0x01] + address.reversed()
        params +=
            [0x01, 0x00, 0xFF, UInt8(bitPattern: tx), UInt8(bitPattern: rssi), 0, 0, 0]
            + [UInt8](repeating: 0, count: 6)
        params += [UInt8(data.count)] + data
        return [0x3E, UInt8(params.count)] + params
    }

    /// btsnoop with datalink 1002 (H4) or 2001 (monitor); `time` in seconds since 1970.
    static func btsnoop(_ events: [(time: Double, event: [UInt8])], datalink: UInt32 = 1002) -> [UInt8] {
        var out = Array("btsnoop\0".utf8) + be32(1) + be32(datalink)
        for (time, event) in events {
            let packet = datalink == 1002 ? [0x04] + event : event
            let flags: UInt32 = datalink == 1002 ? 3 : 3  // received event; monitor opcode 3 = event
            let micros = UInt64(Int64((time * 1e6).rounded()) + CaptureReader.btsnoopEpoch)
            out += be32(UInt32(packet.count)) + be32(UInt32(packet.count)) + be32(flags) + be32(0)
            out += be32(UInt32(micros >> 32)) + be32(UInt32(micros & 0xFFFF_FFFF)) + packet
        }
        return out
    }

    /// pcap (little-endian, microseconds) of link type 201: direction pseudo-header, H4 event.
    static func pcapH4(_ events: [(time: Double, event: [UInt8])]) -> [UInt8] {
        var out = le32(0xA1B2_C3D4) + le16(2) + le16(4) + le32(0) + le32(0) + le32(65535) + le32(201)
        for (time, event) in events {
            let packet = be32(1) + [0x04] + event
            let sec = UInt32(time)
            let usec = UInt32(((time - Double(sec)) * 1e6).rounded())
            out += le32(sec) + le32(usec) + le32(UInt32(packet.count)) + le32(UInt32(packet.count)) + packet
        }
        return out
    }

    /// A link-layer advertising PDU with the 10-byte pseudo-header of link type 256.
    static func llPacket(pduType: UInt8, address: [UInt8], data: [UInt8], rssi: Int8) -> [UInt8] {
        let header: [UInt8] = [37, UInt8(bitPattern: rssi), 0, 0] + le32(0x8E89_BED6) + le16(0x0002 | 0x0001)
        let payload = address.reversed() + data
        return header + le32(0x8E89_BED6) + [pduType | 0x40, UInt8(payload.count)] + payload + [0x12, 0x34, 0x56]
    }

    /// pcapng with one interface of `linkType` in nanoseconds (if_tsresol 9) and one enhanced
    /// packet block per packet.
    static func pcapng(linkType: UInt16, _ packets: [(time: Double, packet: [UInt8])]) -> [UInt8] {
        func block(_ type: UInt32, _ body: [UInt8]) -> [UInt8] {
            let padded = body + [UInt8](repeating: 0, count: (4 - body.count % 4) % 4)
            let length = UInt32(12 + padded.count)
            return le32(type) + le32(length) + padded + le32(length)
        }
        var out = block(0x0A0D_0D0A, le32(0x1A2B_3C4D) + le16(1) + le16(0) + [UInt8](repeating: 0xFF, count: 8))
        out += block(1, le16(linkType) + le16(0) + le32(65535) + le16(9) + le16(1) + [9, 0, 0, 0] + le16(0) + le16(0))
        for (time, packet) in packets {
            let ns = UInt64((time * 1e9).rounded())
            out += block(
                6,
                le32(0) + le32(UInt32(ns >> 32)) + le32(UInt32(ns & 0xFFFF_FFFF)) + le32(UInt32(packet.count))
                    + le32(UInt32(packet.count)) + packet)
        }
        return out
    }

    static func write(_ bytes: [UInt8], name: String) -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-ble-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let path = dir.appendingPathComponent(name).path
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }
}
