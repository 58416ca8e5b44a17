import DAQCore
import DAQTesting
import Testing

@testable import DAQBLE

func hex(_ s: String) -> [UInt8] { Hex.bytes(s.replacingOccurrences(of: " ", with: ""))! }

func decode(_ data: [UInt8], _ decoder: AdvertisingDecoder = AdvertisingDecoder()) -> Fields {
    var f = Fields()
    data.withUnsafeBytes { decoder.decode($0, into: &f) }
    return f
}

/// Byte vectors laid out by the published specifications.
enum Vectors {
    static let flags = "02 01 06"
    /// Apple iBeacon: proximity UUID, major 1, minor 2, measured power -59 dBm.
    static let iBeacon = flags + " 1A FF 4C 00 02 15 E2C56DB5DFFB48D2B060D0F5A71096E0 0001 0002 C5"
    /// Eddystone-UID: ranging data -25 dBm, namespace, instance, two reserved bytes.
    static let uid = flags + " 03 03 AAFE 17 16 AAFE 00 E7 EDD1EBEAC04E5DEFA017 0BDB87539B67 0000"
    /// Eddystone-URL: "http://www." + "google" + ".com/".
    static let url = flags + " 03 03 AAFE 0D 16 AAFE 10 F4 00 676F6F676C65 00"
    /// Eddystone-TLM: 3000 mV, 21.5 °C (0x1580 in 8.8), 100 frames, 3600 × 0.1 s.
    static let tlm = "03 03 AAFE 11 16 AAFE 20 00 0BB8 1580 00000064 00000E10"
    static let tlmNoSensor = "03 03 AAFE 11 16 AAFE 20 00 0BB8 8000 00000064 00000E10"
    static let etlm = "03 03 AAFE 15 16 AAFE 20 01 00112233445566778899AABB 1234 5678"
    static let eid = "03 03 AAFE 0D 16 AAFE 30 F4 0102030405060708"
    /// AltBeacon of company 0x0118: 20-byte id, reference RSSI -59, reserved 0.
    static let altBeacon = flags + " 1B FF 1801 BEAC 00112233445566778899AABBCCDDEEFF00010002 C5 00"
    /// Ruuvi's own RAWv2 example ("valid data" of the data format 5 specification).
    static let ruuvi = flags + " 1B FF 9904 0512FC5394C37C0004FFFC040CAC364200CDCBB8334C884F"
    /// Ruuvi's "invalid values" example: every field at its not-available value.
    static let ruuviNA = flags + " 1B FF 9904 058000FFFFFFFF800080008000FFFFFFFFFFFFFFFFFFFFFF"
}

@Suite(.timeLimit(.minutes(20))) struct AdvertisingDecoderTests {
    @Test func structures() {
        let f = decode(
            hex(
                "02 01 06  05 09 4E6F6465  03 08 4E6F  02 0A F4  05 03 0D18 0F18  09 05 78563412 EFCDAB89  11 07 E09610A7F5D060B0D248FBDFB56DC5E2  05 16 0F18 5A 01  05 FF 5900 0102"
            ))
        #expect(f["flags"] == .int(6) && f["name"] == .string("Node") && f["tx_power"] == .int(-12))
        #expect(
            f["services"] == .array(["180D", "180F", "12345678", "89ABCDEF", "E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"]))
        #expect(f["service_data.180F"] == .string("5A01"))
        #expect(f["manufacturer_id"] == .int(0x59) && f["manufacturer_data"] == .string("0102"))
        #expect(f["errors"] == nil)
    }

    @Test func iBeacon() {
        let f = decode(hex(Vectors.iBeacon))
        #expect(f["frames"] == .array(["ibeacon"]))
        #expect(f["ibeacon.uuid"] == .string("E2C56DB5-DFFB-48D2-B060-D0F5A71096E0"))
        #expect(
            f["ibeacon.major"] == .int(1) && f["ibeacon.minor"] == .int(2) && f["ibeacon.measured_power"] == .int(-59))
    }

    @Test func eddystone() {
        let uid = decode(hex(Vectors.uid))
        #expect(
            uid["eddystone.namespace"] == .string("EDD1EBEAC04E5DEFA017")
                && uid["eddystone.instance"] == .string("0BDB87539B67"))
        #expect(uid["eddystone.ranging_data"] == .int(-25) && uid["services"] == .array(["FEAA"]))
        #expect(decode(hex(Vectors.url))["eddystone.url"] == .string("http://www.google.com/"))
        let tlm = decode(hex(Vectors.tlm))
        #expect(tlm["eddystone.tlm.battery_mv"] == .int(3000) && tlm["eddystone.tlm.temperature"] == .double(21.5))
        #expect(tlm["eddystone.tlm.adv_count"] == .int(100) && tlm["eddystone.tlm.uptime_s"] == .double(360))
        #expect(decode(hex(Vectors.tlmNoSensor))["eddystone.tlm.temperature"] == .null)
        let etlm = decode(hex(Vectors.etlm))
        #expect(etlm["eddystone.tlm.encrypted"] == .bool(true) && etlm["eddystone.tlm.battery_mv"] == nil)
        #expect(decode(hex(Vectors.eid))["eddystone.eid"] == .string("0102030405060708"))
    }

    @Test func altBeacon() {
        let f = decode(hex(Vectors.altBeacon))
        #expect(
            f["frames"] == .array(["altbeacon"])
                && f["altbeacon.id"] == .string("00112233445566778899AABBCCDDEEFF00010002"))
        #expect(f["altbeacon.reference_rssi"] == .int(-59) && f["altbeacon.company"] == .int(0x0118))
        // The id as the Android Beacon Library and other scanners split it: a UUID and two
        // unsigned 16-bit numbers, here the 20 bytes above read that way.
        #expect(f["altbeacon.id1"] == .string("00112233-4455-6677-8899-AABBCCDDEEFF"))
        #expect(f["altbeacon.id2"] == .int(1) && f["altbeacon.id3"] == .int(2))
        let high = decode(hex(Vectors.altBeacon.replacingOccurrences(of: "00010002", with: "FFFE8001")))
        #expect(high["altbeacon.id2"] == .int(65534) && high["altbeacon.id3"] == .int(32769))
    }

    @Test func ruuviWithItsOwnVectors() {
        let f = decode(hex(Vectors.ruuvi))
        #expect(f["ruuvi.temperature"] == .double(24.3) && f["ruuvi.humidity"] == .double(53.49))
        #expect(f["ruuvi.pressure"] == .int(100_044))
        #expect(
            f["ruuvi.acceleration_x"] == .int(4) && f["ruuvi.acceleration_y"] == .int(-4)
                && f["ruuvi.acceleration_z"] == .int(1036))
        #expect(f["ruuvi.battery_mv"] == .int(2977) && f["ruuvi.tx_power"] == .int(4))
        #expect(f["ruuvi.movement_counter"] == .int(66) && f["ruuvi.sequence"] == .int(205))
        #expect(f["ruuvi.mac"] == .string("CB:B8:33:4C:88:4F"))
        let na = decode(hex(Vectors.ruuviNA))
        for key in [
            "temperature", "humidity", "pressure", "acceleration_x", "battery_mv", "tx_power", "movement_counter",
            "sequence", "mac",
        ] {
            #expect(na["ruuvi." + key] == .null, "\(key)")
        }
    }

    @Test(arguments: [
        ("02 01 06 1A FF 4C00", "offset 3: AD structure length 26 runs past the end (report has 7 bytes)"),
        ("02 01 06 00 03 03 AAFE", "offset 3: AD structure of length 0 before more data"),
        ("03 03 AAFE 04 03 0D18 0F", "offset 8: truncated 16-bit UUID (1 of 2 bytes)"),
        (
            "11 07 E0961AA7F5D060B0D2488FBDB56DC5",
            "offset 0: AD structure length 17 runs past the end (report has 17 bytes)"
        ),
        ("0B FF 4C00 0215 E2C56DB5DFFB", "offset 4: iBeacon frame of 8 bytes, expected 23"),
        ("03 03 AAFE 08 16 AAFE 00 E7 EDD1EB", "offset 8: Eddystone-UID frame of 5 bytes, expected 18"),
        ("08 FF 9904 0512FC5394", "offset 4: Ruuvi RAWv2 frame of 5 bytes, expected 24"),
    ])
    func malformedStructuresNameTheirOffset(bytes: String, error: String) {
        let f = decode(hex(bytes))
        #expect(f["errors"] == .array([.string(error)]))
    }

    @Test func structuresBeforeAnErrorAreKept() {
        let f = decode(hex("02 01 06 05 09 4E6F6465 1A FF 4C00"))
        #expect(f["flags"] == .int(6) && f["name"] == .string("Node") && f["errors"] != nil)
        #expect(decode(hex("02 01 06 00 00 00"))["errors"] == nil, "zero padding at the end is allowed")
    }

    @Test func declarativeDecoderFromYAML() throws {
        let config = try PluginConfigLoader.decode(
            BLEReplaySource.Configuration.self,
            yaml: """
                path: x.log
                decoders:
                  - company_id: 0x0059
                    name: acme.sensor
                    match: "01"
                    fields:
                      - {name: temperature, offset: 1, type: i16le, scale: 0.01, unit: "°C"}
                      - {name: counter, offset: 3, type: u32be}
                      - {name: ratio, offset: 7, type: f32le}
                      - {name: beyond, offset: 30, type: u8}
                """)
        let decoder = AdvertisingDecoder(custom: config.custom.decoders)
        let f = decode(hex("0F FF 5900 01 2EFB 0000012C 0000C03F 00"), decoder)
        #expect(f["frames"] == .array(["acme.sensor"]))
        #expect(
            f["acme.sensor.temperature"] == .double(-12.34) && f["acme.sensor.counter"] == .int(300)
                && f["acme.sensor.ratio"] == .double(1.5))
        #expect(f["errors"] == .array(["offset 34: acme.sensor.beyond (u8) runs past the end of 12 bytes"]))
        #expect(decode(hex("05 FF 5900 0201"), decoder)["frames"] == nil, "match prefix differs: raw hex only")
        #expect(throws: ConfigIssue.self) {
            try PluginConfigLoader.decode(
                BLEReplaySource.Configuration.self,
                yaml: "path: x\ndecoders: [{company_id: 70000, name: a, fields: []}]")
        }
    }
}
