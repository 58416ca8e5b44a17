import DAQCore

/// Apple iBeacon: 0x02 0x15, proximity UUID (16 bytes), major, minor (big-endian), measured
/// power (signed, dBm at 1 m).
enum IBeacon {
    static func decode(
        _ p: UnsafeRawBufferPointer, at offset: Int, into f: inout some ReportWriter, frames: inout FrameList,
        errors: inout [Value], texts: inout HexTexts
    ) {
        guard p.u8(1) == 0x15, p.count >= 23, let major = p.u16be(18), let minor = p.u16be(20), let power = p.i8(22)
        else {
            errors.append(.string("offset \(offset): iBeacon frame of \(p.count) bytes, expected 23"))
            return
        }
        frames.append(.ibeacon)
        f.set(.ibeaconUUID, string: texts.text(p[2..<18], .uuid))
        f.set(.ibeaconMajor, int: Int64(major))
        f.set(.ibeaconMinor, int: Int64(minor))
        f.set(.ibeaconMeasuredPower, int: Int64(power))
    }
}

/// AltBeacon: beacon code 0xBEAC, a 20-byte beacon id, reference RSSI at 1 m, one byte
/// reserved for the manufacturer. The id is also split as the Android Beacon Library and
/// other scanners give it: `id1` a UUID, `id2` and `id3` unsigned 16-bit numbers.
enum AltBeacon {
    static func decode(
        _ p: UnsafeRawBufferPointer, company: UInt16, at offset: Int, into f: inout some ReportWriter,
        frames: inout FrameList,
        errors: inout [Value], texts: inout HexTexts
    ) {
        guard p.count >= 24, let id2 = p.u16be(18), let id3 = p.u16be(20), let rssi = p.i8(22), let reserved = p.u8(23)
        else {
            errors.append(.string("offset \(offset): AltBeacon frame of \(p.count) bytes, expected 24"))
            return
        }
        frames.append(.altbeacon)
        f.set(.altbeaconID, string: texts.text(p[2..<22], .plain))
        f.set(.altbeaconID1, string: texts.text(p[2..<18], .uuid))
        f.set(.altbeaconID2, int: Int64(id2))
        f.set(.altbeaconID3, int: Int64(id3))
        f.set(.altbeaconReferenceRSSI, int: Int64(rssi))
        f.set(.altbeaconMfgReserved, int: Int64(reserved))
        f.set(.altbeaconCompany, int: Int64(company))
    }
}

/// Ruuvi data format 5 (RAWv2): a sensor beacon with temperature, humidity, pressure and
/// 3-axis acceleration. Each "not available" value becomes null.
enum RuuviRAWv2 {
    static func decode(
        _ p: UnsafeRawBufferPointer, at offset: Int, into f: inout some ReportWriter, frames: inout FrameList,
        errors: inout [Value], texts: inout HexTexts
    ) {
        guard p.count >= 24, let rawT = p.u16be(1), let h = p.u16be(3), let pr = p.u16be(5), let ax = p.u16be(7),
            let ay = p.u16be(9), let az = p.u16be(11), let power = p.u16be(13), let move = p.u8(15),
            let seq = p.u16be(16)
        else {
            errors.append(.string("offset \(offset): Ruuvi RAWv2 frame of \(p.count) bytes, expected 24"))
            return
        }
        frames.append(.ruuviRAWv2)
        let t = Int16(bitPattern: rawT)
        f.set(.ruuviTemperature, double: rawT == 0x8000 ? nil : Double(t) * 0.005)
        f.set(.ruuviHumidity, double: h == 0xFFFF ? nil : Double(h) * 0.0025)
        f.set(.ruuviPressure, int: pr == 0xFFFF ? nil : Int64(pr) + 50000)
        f.set(.ruuviAccelerationX, int: acceleration(ax))
        f.set(.ruuviAccelerationY, int: acceleration(ay))
        f.set(.ruuviAccelerationZ, int: acceleration(az))
        let battery = power >> 5
        let tx = power & 0x1F
        f.set(.ruuviBatteryMV, int: battery == 2047 ? nil : Int64(battery) + 1600)
        f.set(.ruuviTxPower, int: tx == 31 ? nil : Int64(tx) * 2 - 40)
        f.set(.ruuviMovementCounter, int: move == 255 ? nil : Int64(move))
        f.set(.ruuviSequence, int: seq == 65535 ? nil : Int64(seq))
        let mac = p[18..<24]
        f.set(.ruuviMAC, string: mac.allSatisfy({ $0 == 0xFF }) ? nil : texts.text(mac, .colons))
    }

    /// One axis in mg; 0x8000 means not available.
    private static func acceleration(_ raw: UInt16) -> Int64? {
        raw == 0x8000 ? nil : Int64(Int16(bitPattern: raw))
    }
}
