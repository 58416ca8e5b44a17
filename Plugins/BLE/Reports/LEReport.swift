import DAQCore

/// One advertising report, from whichever source: an HCI event, a capture of the link layer.
/// `data` points into the reader's buffer and is valid only during the callback.
struct LEReport {
    var timestamp: Double
    /// The advertiser's address as sent on air (little-endian).
    var address: UnsafeRawBufferPointer
    var addressType: UInt8
    var eventType: String
    var rssi: Int8?
    var txPower: Int8?
    var data: UnsafeRawBufferPointer

    /// A switch rather than a table: a global array costs a lazy-init check per report.
    static func addressTypeName(_ t: UInt8) -> String {
        switch t {
        case 0: return "public"
        case 1: return "random"
        case 2: return "public-identity"
        case 3: return "random-identity"
        default: return "anonymous"
        }
    }

    /// The report's own fields, then the decoded advertising data, `data` last as raw hex.
    func fields(decoder: AdvertisingDecoder) -> Fields {
        var f = NamedFields(base: Fields())
        var texts = DeviceTexts()
        write(into: &f, decoder: decoder, texts: &texts)
        return f.base
    }

    /// Writes the report's fields; a batch row is filled in place, with no `Fields` between.
    /// `texts` holds the address and data texts of devices seen before.
    func write(into f: inout some ReportWriter, decoder: AdvertisingDecoder, texts: inout DeviceTexts) {
        f.set(.address, string: texts.address(self))
        f.set(.addressType, string: Self.addressTypeName(addressType))
        f.set(.eventType, string: eventType)
        f.set(.rssi, int: rssi.map { Int64($0) })
        if let txPower { f.set(.advTxPower, int: Int64(txPower)) }
        // The data's text first, though written last: whether the device's data changed
        // tells the decoder which texts are worth looking up.
        let dataText = texts.data(self)
        decoder.decode(data, into: &f, texts: &texts.hex)
        f.set(.data, string: dataText)
    }
}

/// Advertising reports in HCI LE Meta events: LE Advertising Report (0x02) and LE Extended
/// Advertising Report (0x0D), several reports per event, each laid out as BlueZ and every
/// controller send them (one report's fields after another).
enum HCIEvents {
    static func legacyName(_ t: UInt8) -> String {
        switch t {
        case 0: return "ADV_IND"
        case 1: return "ADV_DIRECT_IND"
        case 2: return "ADV_SCAN_IND"
        case 3: return "ADV_NONCONN_IND"
        case 4: return "SCAN_RSP"
        default: return "0x" + Hex.string([t])
        }
    }

    struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        var reason: String
        var description: String { "offset \(offset): \(reason)" }
    }

    /// Calls `body` for each report of the event `e` (event code first, no H4 type byte).
    /// Events that are not advertising reports are skipped.
    /// - Throws: ``Malformed`` naming the byte offset; reports before it were delivered.
    static func reports(in e: UnsafeRawBufferPointer, timestamp: Double, _ body: (LEReport) -> Void) throws {
        guard e.count >= 3, e[0] == 0x3E else { return }
        let declared = Int(e[1])
        guard declared + 2 <= e.count else {
            throw Malformed(offset: 1, reason: "event length \(declared) runs past the \(e.count - 2) bytes present")
        }
        let sub = e[2]
        guard sub == 0x02 || sub == 0x0D else { return }
        guard let n = e.u8(3) else { throw Malformed(offset: 3, reason: "no report count") }
        var i = 4
        for r in 0..<Int(n) {
            if sub == 0x02 {
                guard let type = e.u8(i), let addrType = e.u8(i + 1), let address = e.slice(i + 2, 6),
                    let length = e.u8(i + 8),
                    let data = e.slice(i + 9, Int(length)), let rssi = e.i8(i + 9 + Int(length))
                else { throw Malformed(offset: i, reason: "report \(r + 1) of \(n) is cut short") }
                let name = legacyName(type)
                body(
                    LEReport(
                        timestamp: timestamp, address: address, addressType: addrType, eventType: name,
                        rssi: rssi == 127 ? nil : rssi, txPower: nil, data: data))
                i += 10 + Int(length)
            } else {
                guard let type = e.u16le(i), let addrType = e.u8(i + 2), let address = e.slice(i + 3, 6),
                    let tx = e.i8(i + 12),
                    let rssi = e.i8(i + 13), let length = e.u8(i + 23), let data = e.slice(i + 24, Int(length))
                else { throw Malformed(offset: i, reason: "extended report \(r + 1) of \(n) is cut short") }
                body(
                    LEReport(
                        timestamp: timestamp, address: address, addressType: addrType, eventType: extendedName(type),
                        rssi: rssi == 127 ? nil : rssi, txPower: tx == 127 ? nil : tx, data: data))
                i += 24 + Int(length)
            }
        }
    }

    /// Extended report event types: legacy PDUs by their names, others by their properties.
    static func extendedName(_ t: UInt16) -> String {
        switch t & 0x1F {
        case 0x13: return "ADV_IND"
        case 0x15: return "ADV_DIRECT_IND"
        case 0x12: return "ADV_SCAN_IND"
        case 0x10: return "ADV_NONCONN_IND"
        case 0x1B, 0x1A: return "SCAN_RSP"
        default:
            var parts: [String] = []
            if t & 0x01 != 0 { parts.append("connectable") }
            if t & 0x02 != 0 { parts.append("scannable") }
            if t & 0x04 != 0 { parts.append("directed") }
            if t & 0x08 != 0 { parts.append("scan_response") }
            if (t >> 5) & 0x03 == 1 { parts.append("incomplete") }
            return "EXT_ADV" + (parts.isEmpty ? "" : "(" + parts.joined(separator: ",") + ")")
        }
    }

    /// Advertising PDUs captured on air (LINKTYPE_BLUETOOTH_LE_LL_WITH_PHDR): header, AdvA,
    /// AdvData. Only PDUs that carry advertising data are reports.
    static func linkLayer(_ pdu: UnsafeRawBufferPointer, rssi: Int8?, timestamp: Double, _ body: (LEReport) -> Void)
        throws
    {
        // Access address (4), header (2), payload.
        guard pdu.count >= 6, let header = pdu.u8(4), let length = pdu.u8(5) else {
            throw Malformed(offset: 0, reason: "link-layer packet shorter than its header")
        }
        let names: [UInt8: String] = [0: "ADV_IND", 2: "ADV_NONCONN_IND", 4: "SCAN_RSP", 6: "ADV_SCAN_IND"]
        guard let name = names[header & 0x0F] else { return }
        guard length >= 6, let address = pdu.slice(6, 6), let data = pdu.slice(12, Int(length) - 6) else {
            throw Malformed(
                offset: 5, reason: "advertising PDU length \(length) runs past the \(pdu.count - 6) bytes present")
        }
        body(
            LEReport(
                timestamp: timestamp, address: address, addressType: (header >> 6) & 1, eventType: name, rssi: rssi,
                txPower: nil, data: data))
    }
}
