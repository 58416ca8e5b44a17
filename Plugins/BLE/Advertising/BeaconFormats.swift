import DAQCore

/// Apple iBeacon: 0x02 0x15, proximity UUID (16 bytes), major, minor (big-endian), measured
/// power (signed, dBm at 1 m).
enum IBeacon {
    static func decode(_ p: UnsafeRawBufferPointer, at offset: Int, into f: inout some FieldWriter, frames: inout [Value], errors: inout [Value]) {
        guard p.u8(1) == 0x15, p.count >= 23, let major = p.u16be(18), let minor = p.u16be(20), let power = p.i8(22) else {
            errors.append(.string("offset \(offset): iBeacon frame of \(p.count) bytes, expected 23"))
            return
        }
        frames.append("ibeacon")
        f["ibeacon.uuid"] = .string(Hex.uuid(p[2..<18]))
        f["ibeacon.major"] = .int(Int64(major))
        f["ibeacon.minor"] = .int(Int64(minor))
        f["ibeacon.measured_power"] = .int(Int64(power))
    }
}

/// AltBeacon: beacon code 0xBEAC, a 20-byte beacon id, reference RSSI at 1 m, one byte
/// reserved for the manufacturer.
enum AltBeacon {
    static func decode(
        _ p: UnsafeRawBufferPointer, company: UInt16, at offset: Int, into f: inout some FieldWriter, frames: inout [Value], errors: inout [Value]
    ) {
        guard p.count >= 24, let rssi = p.i8(22), let reserved = p.u8(23) else {
            errors.append(.string("offset \(offset): AltBeacon frame of \(p.count) bytes, expected 24"))
            return
        }
        frames.append("altbeacon")
        f["altbeacon.id"] = .string(Hex.string(p[2..<22]))
        f["altbeacon.reference_rssi"] = .int(Int64(rssi))
        f["altbeacon.mfg_reserved"] = .int(Int64(reserved))
        f["altbeacon.company"] = .int(Int64(company))
    }
}

/// Ruuvi data format 5 (RAWv2): a sensor beacon with temperature, humidity, pressure and
/// 3-axis acceleration. Each "not available" value becomes null.
enum RuuviRAWv2 {
    static func decode(_ p: UnsafeRawBufferPointer, at offset: Int, into f: inout some FieldWriter, frames: inout [Value], errors: inout [Value]) {
        guard p.count >= 24, let rawT = p.u16be(1), let h = p.u16be(3), let pr = p.u16be(5), let ax = p.u16be(7),
            let ay = p.u16be(9), let az = p.u16be(11), let power = p.u16be(13), let move = p.u8(15), let seq = p.u16be(16)
        else {
            errors.append(.string("offset \(offset): Ruuvi RAWv2 frame of \(p.count) bytes, expected 24"))
            return
        }
        frames.append("ruuvi.rawv2")
        let t = Int16(bitPattern: rawT)
        f["ruuvi.temperature"] = rawT == 0x8000 ? .null : .double(Double(t) * 0.005)
        f["ruuvi.humidity"] = h == 0xFFFF ? .null : .double(Double(h) * 0.0025)
        f["ruuvi.pressure"] = pr == 0xFFFF ? .null : .int(Int64(pr) + 50000)
        f["ruuvi.acceleration_x"] = acceleration(ax)
        f["ruuvi.acceleration_y"] = acceleration(ay)
        f["ruuvi.acceleration_z"] = acceleration(az)
        let battery = power >> 5, tx = power & 0x1F
        f["ruuvi.battery_mv"] = battery == 2047 ? .null : .int(Int64(battery) + 1600)
        f["ruuvi.tx_power"] = tx == 31 ? .null : .int(Int64(tx) * 2 - 40)
        f["ruuvi.movement_counter"] = move == 255 ? .null : .int(Int64(move))
        f["ruuvi.sequence"] = seq == 65535 ? .null : .int(Int64(seq))
        let mac = p[18..<24]
        f["ruuvi.mac"] = mac.allSatisfy({ $0 == 0xFF }) ? .null : .string(Hex.string(mac, separator: UInt8(ascii: ":")))
    }

    /// One axis in mg; 0x8000 means not available.
    private static func acceleration(_ raw: UInt16) -> Value {
        raw == 0x8000 ? .null : .int(Int64(Int16(bitPattern: raw)))
    }
}
