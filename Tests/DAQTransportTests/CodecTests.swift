import DAQTransport
import NIOCore
import Testing

/// The packet codec against the bytes MQTT 3.1.1 specifies.
@Suite("MQTT codec", .timeLimit(.minutes(20)))
struct CodecTests {
    static func bytes(_ packet: MQTTPacket) throws -> [UInt8] {
        var b = ByteBuffer()
        try packet.write(to: &b)
        return Array(b.readableBytesView)
    }

    static func parse(_ bytes: [UInt8]) throws -> MQTTPacket? {
        var b = ByteBuffer(bytes: bytes)
        return try MQTTPacket.parse(from: &b)
    }

    @Test func connectMatchesSection3_1() throws {
        let c = MQTTConnect(clientID: "ab", keepAlive: 60, cleanSession: true, username: "u", password: "p")
        // Fixed header 0x10, remaining length 20; "MQTT", level 4, flags 11000010, keep-alive 60, payload.
        let expected: [UInt8] = [0x10, 20, 0, 4, 77, 81, 84, 84, 4, 0xC2, 0, 60, 0, 2, 97, 98, 0, 1, 117, 0, 1, 112]
        #expect(try Self.bytes(.connect(c)) == expected)
        #expect(try Self.parse(expected) == .connect(c))
    }

    @Test func publishQoS1CarriesFlagsAndPacketID() throws {
        let p = MQTTPublish(
            topic: "a/b", payload: ByteBuffer(string: "hi"), qos: .atLeastOnce, retain: true, duplicate: true,
            packetID: 10)
        let expected: [UInt8] = [0x3B, 9, 0, 3, 97, 47, 98, 0, 10, 104, 105]
        #expect(try Self.bytes(.publish(p)) == expected)
        #expect(try Self.parse(expected) == .publish(p))
    }

    @Test func publishQoS0HasNoPacketID() throws {
        let p = MQTTPublish(topic: "t", payload: ByteBuffer(string: "x"), qos: .atMostOnce)
        #expect(try Self.bytes(.publish(p)) == [0x30, 4, 0, 1, 116, 120])
    }

    @Test(arguments: [
        (3, [UInt8]([0x03])), (127, [0x7F]), (128, [0x80, 0x01]), (16_383, [0xFF, 0x7F]), (16_384, [0x80, 0x80, 0x01]),
        (2_097_151, [0xFF, 0xFF, 0x7F]), (2_097_152, [0x80, 0x80, 0x80, 0x01]),
        (268_435_455, [0xFF, 0xFF, 0xFF, 0x7F]),
    ])
    func remainingLengthFollowsTable2_2(length: Int, encoded: [UInt8]) throws {
        // Topic "t" takes 3 bytes of the remaining length; the payload fills the rest.
        let p = MQTTPublish(topic: "t", payload: ByteBuffer(repeating: 0, count: length - 3), qos: .atMostOnce)
        let b = try Self.bytes(.publish(p))
        #expect(Array(b[1..<(1 + encoded.count)]) == encoded)
    }

    @Test func smallPacketsRoundTrip() throws {
        let packets: [MQTTPacket] = [
            .connack(sessionPresent: true, returnCode: 0), .puback(packetID: 65535),
            .subscribe(packetID: 7, filters: [("daq/#", .atLeastOnce), ("x/+/y", .atMostOnce)]),
            .suback(packetID: 7, returnCodes: [1, 0x80]), .pingreq, .pingresp, .disconnect,
        ]
        for p in packets { #expect(try Self.parse(try Self.bytes(p)) == p) }
        #expect(try Self.bytes(.pingreq) == [0xC0, 0])
        #expect(try Self.bytes(.disconnect) == [0xE0, 0])
        #expect(try Self.bytes(.puback(packetID: 258)) == [0x40, 2, 1, 2])
        #expect(
            try Self.bytes(.subscribe(packetID: 1, filters: [("a", .atLeastOnce)])) == [0x82, 6, 0, 1, 0, 1, 97, 1])
    }

    @Test func incompletePacketsWaitForMoreBytes() throws {
        let full = try Self.bytes(.puback(packetID: 3))
        for n in 0..<full.count {
            var b = ByteBuffer(bytes: full[0..<n])
            #expect(try MQTTPacket.parse(from: &b) == nil)
            #expect(b.readableBytes == n, "nothing is consumed")
        }
    }

    @Test(arguments: [
        ([UInt8]([0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x01]), "bad remaining length"),
        ([0x00, 0x00], "unknown packet type 0"),
        ([0xF0, 0x00], "unknown packet type 15"),
        ([0x40, 0x01, 0x00], "truncated PUBACK"),
        ([0x20, 0x03, 0x00, 0x00, 0x00], "unexpected bytes"),
        ([0x36, 0x05, 0x00, 0x01, 0x61, 0x00, 0x01], "unsupported QoS 3"),
        ([0x80, 0x03, 0x00, 0x01, 0x00], "invalid flags"),
        ([0x30, 0x03, 0x00, 0x05, 0x61], "truncated PUBLISH"),
        ([0x50, 0x02, 0x00, 0x01], "unexpected PUBREC"),
        ([0x30, 0x04, 0x00, 0x02, 0xC3, 0x28], "not UTF-8"),
    ])
    func malformedPacketsAreErrors(bytes: [UInt8], message: String) {
        #expect {
            _ = try Self.parse(bytes)
        } throws: { error in
            "\(error)".contains(message)
        }
    }

    @Test func tooLongStringsAreRefused() {
        let p = MQTTPublish(topic: String(repeating: "a", count: 70_000), payload: ByteBuffer(), qos: .atMostOnce)
        #expect(throws: MQTTProtocolError.self) { try Self.bytes(.publish(p)) }
    }

    @Test func urlsParse() throws {
        #expect(try MQTTClientOptions.parse(url: "mqtt://127.0.0.1:1884").get() == ("127.0.0.1", 1884, false))
        #expect(try MQTTClientOptions.parse(url: "mqtts://broker").get() == ("broker", 8883, true))
        #expect(try MQTTClientOptions.parse(url: "mqtt://[::1]").get() == ("::1", 1883, false))
        for bad in ["http://x", "mqtt://", "mqtt://h:0", "mqtt://u:p@h", "mqtt://h/path"] {
            #expect(throws: MQTTClientOptions.URLError.self) { try MQTTClientOptions.parse(url: bad).get() }
        }
    }
}
