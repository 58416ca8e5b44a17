import DAQCore
import Testing

/// DAQCore's one hex decoder, behind `daq test`'s `hex:` lines, BLE `match:` prefixes and MQTT
/// `_bytes` fields.
@Suite("hex bytes", .timeLimit(.minutes(20)))
struct HexBytesTests {
    @Test(
        arguments: [
            ("3E1a", [0x3E, 0x1A]),
            ("3e 1A", [0x3E, 0x1A]),
            ("3e:1a:FF", [0x3E, 0x1A, 0xFF]),
            ("  00\t7f  ", [0x00, 0x7F]),
            ("", []),
        ] as [(String, [UInt8])])
    func decodes(_ text: String, _ bytes: [UInt8]) {
        #expect(HexBytes.decode(text) == bytes)
    }

    /// Each of these was accepted by one of the three decoders this one replaces: a sign
    /// (`UInt8("+f", radix: 16)` is 15), or a separator inside a pair.
    @Test(arguments: ["+f", "-0", "0x10", "3", "3e1", "3 e", "3:e", "zz", "é1"])
    func refuses(_ text: String) {
        #expect(HexBytes.decode(text) == nil)
    }

    @Test func digitValues() {
        let digits = Array("0123456789abcdefABCDEF".utf8)
        #expect(digits.map { HexBytes.value($0) } == (0..<16).map(UInt8.init) + (10..<16).map(UInt8.init))
        #expect((0...255).filter { HexBytes.value(UInt8($0)) != nil }.count == 22)
    }
}
