import DAQCore

/// Eddystone frames (service data of UUID 0xFEAA): UID, URL, TLM (plain and encrypted), EID.
enum Eddystone {
    static let schemes = ["http://www.", "https://www.", "http://", "https://"]
    static let expansions = [
        ".com/", ".org/", ".edu/", ".net/", ".info/", ".biz/", ".gov/", ".com", ".org", ".edu", ".net", ".info", ".biz",
        ".gov",
    ]

    static func decode(
        _ p: UnsafeRawBufferPointer, at offset: Int, into f: inout some ReportWriter, frames: inout FrameList,
        errors: inout [Value], texts: inout HexTexts
    ) {
        guard let type = p.u8(0) else {
            errors.append(.string("offset \(offset): Eddystone frame without a frame type"))
            return
        }
        switch type {
        case 0x00:
            guard p.count >= 18, let ranging = p.i8(1) else { return short("UID", p.count, 18, offset, &errors) }
            frames.append(.eddystoneUID)
            f.set(.eddystoneRangingData, int: Int64(ranging))
            f.set(.eddystoneNamespace, string: texts.text(p[2..<12], .plain))
            f.set(.eddystoneInstance, string: Hex.string(p[12..<18]))
        case 0x10:
            guard p.count >= 3, let tx = p.i8(1), let scheme = p.u8(2) else {
                return short("URL", p.count, 3, offset, &errors)
            }
            guard Int(scheme) < schemes.count else {
                errors.append(
                    .string(
                        "offset \(offset + 2): Eddystone-URL scheme prefix 0x\(Hex.string([scheme])) is not defined"))
                return
            }
            var url = schemes[Int(scheme)]
            for b in p[3...] {
                if Int(b) < expansions.count {
                    url += expansions[Int(b)]
                } else if b > 0x20 && b < 0x7F {
                    url.append(Character(Unicode.Scalar(b)))
                }
            }
            frames.append(.eddystoneURL)
            f.set(.eddystoneTxPower, int: Int64(tx))
            f.set(.eddystoneURL, string: url)
        case 0x20:
            guard let version = p.u8(1) else { return short("TLM", p.count, 14, offset, &errors) }
            frames.append(.eddystoneTLM)
            f.set(.tlmVersion, int: Int64(version))
            if version == 0x01 {
                // Encrypted TLM (ETLM): the bytes are ciphertext; reading them as values would lie.
                f.set(.tlmEncrypted, .bool(true))
                f.set(.tlmData, string: Hex.string(p[2...]))
                return
            }
            guard p.count >= 14, let battery = p.u16be(2), let temp = p.u16be(4), let count = p.u32be(6),
                let secs = p.u32be(10)
            else {
                return short("TLM", p.count, 14, offset, &errors)
            }
            f.set(.tlmEncrypted, .bool(false))
            f.set(.tlmBatteryMV, int: battery == 0 ? nil : Int64(battery))
            // 8.8 signed fixed point; 0x8000 means the beacon has no sensor.
            f.set(.tlmTemperature, double: temp == 0x8000 ? nil : Double(Int16(bitPattern: temp)) / 256)
            f.set(.tlmAdvCount, int: Int64(count))
            f.set(.tlmUptime, double: Double(secs) / 10)
        case 0x30:
            guard p.count >= 10, let tx = p.i8(1) else { return short("EID", p.count, 10, offset, &errors) }
            frames.append(.eddystoneEID)
            f.set(.eddystoneTxPower, int: Int64(tx))
            f.set(.eddystoneEID, string: Hex.string(p[2..<10]))
        default:
            frames.append(.eddystoneUnknown)
            f.set(.eddystoneFrameType, int: Int64(type))
        }
    }

    private static func short(_ name: String, _ have: Int, _ need: Int, _ offset: Int, _ errors: inout [Value]) {
        errors.append(.string("offset \(offset): Eddystone-\(name) frame of \(have) bytes, expected \(need)"))
    }
}
