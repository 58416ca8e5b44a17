import DAQCore

/// Reads advertising reports from a capture file — btsnoop (`btmon -w`, Android's HCI snoop
/// log), pcap or pcapng with Bluetooth link types — told apart by the file's magic bytes.
final class CaptureReader {
    enum Format: Equatable {
        /// btsnoop: datalink 1001 (HCI, type in flags), 1002 (H4), 2001 (btmon's monitor format).
        case btsnoop(datalink: UInt32)
        case pcap(bigEndian: Bool, nanoseconds: Bool, linkType: UInt32)
        case pcapng
    }

    static let btsnoopEpoch: Int64 = 0x00DC_DDB3_0F2F_8000

    let reader: ChunkReader
    private(set) var format: Format
    /// pcapng: link type and time resolution of each interface, by index.
    private var interfaces: [(linkType: UInt32, resolution: Double)] = []
    private var bigEndianBlocks = false
    /// Records that could not be decoded, each with its offset; reading goes on past them.
    private(set) var malformed: [String] = []
    private(set) var records = 0

    init(path: String) throws {
        reader = try ChunkReader(path: path)
        guard try reader.ensure(4) else {
            throw CaptureError(path: path, offset: 0, reason: "too short for a capture (btsnoop, pcap or pcapng)")
        }
        let magic = reader.peek(4) { Array($0) }
        switch magic {
        case Array("btsn".utf8):
            guard try reader.ensure(16), reader.peek(8, { Array($0) }) == Array("btsnoop\0".utf8) else {
                throw CaptureError(path: path, offset: 0, reason: "btsnoop header cut short")
            }
            let (version, datalink) = reader.peek(16) { ($0.u32be(8)!, $0.u32be(12)!) }
            guard version == 1 else {
                throw CaptureError(path: path, offset: 8, reason: "btsnoop version \(version), expected 1")
            }
            guard [1001, 1002, 2001].contains(datalink) else {
                throw CaptureError(
                    path: path, offset: 12,
                    reason: "btsnoop datalink \(datalink): expected 1001 (HCI), 1002 (H4) or 2001 (monitor)")
            }
            format = .btsnoop(datalink: datalink)
            reader.consume(16)
        case [0xA1, 0xB2, 0xC3, 0xD4], [0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0x3C, 0x4D], [0x4D, 0x3C, 0xB2, 0xA1]:
            guard try reader.ensure(24) else {
                throw CaptureError(path: path, offset: 0, reason: "pcap header cut short")
            }
            let big = magic[0] == 0xA1
            let nanos = magic == [0xA1, 0xB2, 0x3C, 0x4D] || magic == [0x4D, 0x3C, 0xB2, 0xA1]
            let link = reader.peek(24) { big ? $0.u32be(20)! : $0.u32le(20)! } & 0x0FFF_FFFF
            guard link == 201 || link == 256 else {
                throw CaptureError(
                    path: path, offset: 20,
                    reason:
                        "pcap link type \(link): expected 201 (BLUETOOTH_HCI_H4_WITH_PHDR) or 256 (BLUETOOTH_LE_LL_WITH_PHDR)"
                )
            }
            format = .pcap(bigEndian: big, nanoseconds: nanos, linkType: link)
            reader.consume(24)
        case [0x0A, 0x0D, 0x0D, 0x0A]:
            format = .pcapng
        default:
            throw CaptureError(
                path: path, offset: 0,
                reason: "not a capture: expected the magic of btsnoop, pcap or pcapng, found \(Hex.string(magic))")
        }
    }

    /// Calls `body` for every report of the next records, up to about `limit` reports.
    /// - Returns: `false` at the end of the file.
    func read(limit: Int, _ body: (LEReport) -> Void) throws -> Bool {
        var delivered = 0
        while delivered < limit {
            // Closures written out at each call, not one stored in a variable: a stored closure
            // escapes, and `delivered` would then be boxed and checked for exclusive access at
            // run time, per report.
            let more: Bool
            switch format {
            case .btsnoop(let datalink):
                more = try btsnoopRecord(datalink) {
                    delivered += 1
                    body($0)
                }
            case .pcap(let big, let nanos, let link):
                more = try pcapRecord(big, nanos, link) {
                    delivered += 1
                    body($0)
                }
            case .pcapng:
                more = try pcapngBlock {
                    delivered += 1
                    body($0)
                }
            }
            if !more { return false }
        }
        return true
    }

    private func decodeEvent(
        _ event: UnsafeRawBufferPointer, at offset: Int, timestamp: Double, _ body: (LEReport) -> Void
    ) {
        do {
            try HCIEvents.reports(in: event, timestamp: timestamp, body)
        } catch let e as HCIEvents.Malformed {
            malformed.append("byte \(offset + e.offset): \(e.reason)")
        } catch {
            malformed.append("byte \(offset): \(error)")
        }
    }

    /// A record cut off at the end of the file: reported, and the records before it are kept.
    private func truncated(_ what: String) -> Bool {
        if reader.available > 0 {
            malformed.append("byte \(reader.offset): the last \(what) is cut off (\(reader.available) bytes)")
        }
        return false
    }

    private func btsnoopRecord(_ datalink: UInt32, _ body: (LEReport) -> Void) throws -> Bool {
        guard try reader.ensure(24) else { return truncated("btsnoop record header") }
        let (included, flags, micros) = reader.peek(24) { p -> (Int, UInt32, Int64) in
            let hi = Int64(p.u32be(16)!)
            let lo = Int64(p.u32be(20)!)
            return (Int(p.u32be(4)!), p.u32be(8)!, hi << 32 | lo)
        }
        guard try reader.ensure(24 + included) else { return truncated("btsnoop record, of \(included) bytes,") }
        records += 1
        let at = reader.offset + 24
        // The field is 64 bits from the file: a damaged one must not overflow the arithmetic.
        let (since1970, overflow) = micros.subtractingReportingOverflow(Self.btsnoopEpoch)
        if overflow { malformed.append("byte \(at - 8): btsnoop timestamp \(micros) µs is out of range") }
        let timestamp = overflow ? (Double(micros) - Double(Self.btsnoopEpoch)) / 1e6 : Double(since1970) / 1e6
        reader.peek(24 + included) { p in
            let packet = UnsafeRawBufferPointer(rebasing: p[24...])
            switch datalink {
            case 1002:
                if packet.u8(0) == 0x04 {
                    decodeEvent(UnsafeRawBufferPointer(rebasing: packet[1...]), at: at + 1, timestamp: timestamp, body)
                }
            case 1001:
                if flags & 0x03 == 0x03 { decodeEvent(packet, at: at, timestamp: timestamp, body) }
            default:
                if flags & 0xFFFF == 3 { decodeEvent(packet, at: at, timestamp: timestamp, body) }
            }
        }
        reader.consume(24 + included)
        return true
    }

    private func pcapRecord(_ big: Bool, _ nanos: Bool, _ link: UInt32, _ body: (LEReport) -> Void) throws -> Bool {
        guard try reader.ensure(16) else { return truncated("pcap record header") }
        let (sec, frac, included) = reader.peek(16) { p in
            big ? (p.u32be(0)!, p.u32be(4)!, Int(p.u32be(8)!)) : (p.u32le(0)!, p.u32le(4)!, Int(p.u32le(8)!))
        }
        guard try reader.ensure(16 + included) else { return truncated("pcap record, of \(included) bytes,") }
        records += 1
        let timestamp = Double(sec) + Double(frac) / (nanos ? 1e9 : 1e6)
        let at = reader.offset + 16
        reader.peek(16 + included) { p in
            packet(UnsafeRawBufferPointer(rebasing: p[16...]), link: link, at: at, timestamp: timestamp, body)
        }
        reader.consume(16 + included)
        return true
    }

    /// One packet of link type 201 (4-byte direction, then H4) or 256 (10-byte pseudo-header,
    /// then the link-layer packet).
    private func packet(
        _ p: UnsafeRawBufferPointer, link: UInt32, at: Int, timestamp: Double, _ body: (LEReport) -> Void
    ) {
        if link == 201 {
            if p.count > 5, p[4] == 0x04 {
                decodeEvent(UnsafeRawBufferPointer(rebasing: p[5...]), at: at + 5, timestamp: timestamp, body)
            }
            return
        }
        guard p.count >= 10, let flags = p.u16le(8) else {
            malformed.append("byte \(at): LE link-layer pseudo-header cut short")
            return
        }
        let rssi: Int8? = flags & 0x0002 != 0 ? p.i8(1) : nil
        do {
            try HCIEvents.linkLayer(UnsafeRawBufferPointer(rebasing: p[10...]), rssi: rssi, timestamp: timestamp, body)
        } catch let e as HCIEvents.Malformed {
            malformed.append("byte \(at + 10 + e.offset): \(e.reason)")
        } catch {}
    }

    private func pcapngBlock(_ body: (LEReport) -> Void) throws -> Bool {
        guard try reader.ensure(12) else { return truncated("pcapng block header") }
        let big = bigEndianBlocks
        var (type, length) = reader.peek(8) { p in
            big ? (p.u32be(0)!, Int(p.u32be(4)!)) : (p.u32le(0)!, Int(p.u32le(4)!))
        }
        if type == 0x0A0D_0D0A {
            // Section header: its byte-order magic sets how every later number is read.
            let order = reader.peek(12) { p in p.u32le(8)! }
            bigEndianBlocks = order == 0x4D3C_2B1A
            guard bigEndianBlocks || order == 0x1A2B_3C4D else {
                throw CaptureError(
                    path: reader.path, offset: reader.offset + 8, reason: "pcapng byte-order magic not found")
            }
            length = reader.peek(8) { p in Int(bigEndianBlocks ? p.u32be(4)! : p.u32le(4)!) }
            interfaces = []
            type = 0x0A0D_0D0A
        }
        guard length >= 12, length % 4 == 0 else {
            throw CaptureError(
                path: reader.path, offset: reader.offset + 4,
                reason: "pcapng block length \(length) is not a multiple of 4 of at least 12")
        }
        guard try reader.ensure(length) else { return truncated("pcapng block, of \(length) bytes,") }
        let at = reader.offset
        let be = bigEndianBlocks
        func u32(_ p: UnsafeRawBufferPointer, _ i: Int) -> UInt32? { be ? p.u32be(i) : p.u32le(i) }
        func u16(_ p: UnsafeRawBufferPointer, _ i: Int) -> UInt16? { be ? p.u16be(i) : p.u16le(i) }
        reader.peek(length) { p in
            switch type {
            case 1:
                // Interface description: link type, then options; if_tsresol (9) sets the unit.
                var resolution = 1e-6
                var o = 16
                while o + 4 <= length - 4, let code = u16(p, o), let n = u16(p, o + 2), code != 0 {
                    if code == 9, let v = p.u8(o + 4) {
                        resolution = v & 0x80 != 0 ? pow2(-Int(v & 0x7F)) : pow10(-Int(v))
                    }
                    o += 4 + (Int(n) + 3) / 4 * 4
                }
                interfaces.append((UInt32(u16(p, 8) ?? 0), resolution))
            case 6:
                guard let id = u32(p, 8), let hi = u32(p, 12), let lo = u32(p, 16), let captured = u32(p, 20),
                    Int(id) < interfaces.count, 28 + Int(captured) <= length
                else {
                    malformed.append(
                        "byte \(at): enhanced packet block names no known interface or runs past its length")
                    return
                }
                records += 1
                let iface = interfaces[Int(id)]
                let ticks = Double(UInt64(hi) << 32 | UInt64(lo))
                guard iface.linkType == 201 || iface.linkType == 256 else { return }
                packet(
                    UnsafeRawBufferPointer(rebasing: p[28..<(28 + Int(captured))]), link: iface.linkType, at: at + 28,
                    timestamp: ticks * iface.resolution, body)
            case 3:
                guard let captured = u32(p, 8), let iface = interfaces.first, 12 + Int(captured) <= length else {
                    return
                }
                records += 1
                let n = min(Int(captured), length - 16)
                guard iface.linkType == 201 || iface.linkType == 256 else { return }
                packet(
                    UnsafeRawBufferPointer(rebasing: p[12..<(12 + n)]), link: iface.linkType, at: at + 12, timestamp: 0,
                    body)
            default:
                break
            }
        }
        reader.consume(length)
        return true
    }

    private func pow10(_ e: Int) -> Double {
        var r = 1.0
        for _ in 0..<(-e) { r /= 10 }
        return r
    }
    private func pow2(_ e: Int) -> Double {
        var r = 1.0
        for _ in 0..<(-e) { r /= 2 }
        return r
    }
}
