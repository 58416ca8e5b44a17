import NIOCore

/// Writing packets as bytes (MQTT 3.1.1, section 2 and 3).
extension MQTTPacket {
    /// The largest remaining length four varint bytes can hold (section 2.2.3).
    public static let maxRemainingLength = 268_435_455

    /// Appends the packet: fixed header, remaining length, variable header, payload.
    /// - Throws: ``MQTTProtocolError`` when the packet is too large or a string too long.
    public func write(to out: inout ByteBuffer) throws {
        switch self {
        case .connect(let c):
            var flags: UInt8 = c.cleanSession ? 0x02 : 0
            if c.username != nil { flags |= 0x80 }
            if c.password != nil { flags |= 0x40 }
            var length = 10 + 2 + c.clientID.utf8.count
            if let u = c.username { length += 2 + u.utf8.count }
            if let p = c.password { length += 2 + p.utf8.count }
            try Self.header(.connect, flags: 0, length: length, to: &out)
            try Self.writeString("MQTT", to: &out)
            out.writeInteger(UInt8(4))  // protocol level 4 = 3.1.1
            out.writeInteger(flags)
            out.writeInteger(c.keepAlive)
            try Self.writeString(c.clientID, to: &out)
            if let u = c.username { try Self.writeString(u, to: &out) }
            if let p = c.password { try Self.writeString(p, to: &out) }
        case .connack(let sessionPresent, let code):
            try Self.header(.connack, flags: 0, length: 2, to: &out)
            out.writeInteger(UInt8(sessionPresent ? 1 : 0))
            out.writeInteger(code)
        case .publish(let p):
            try Self.writePublishHeader(p, payloadLength: p.payload.readableBytes, to: &out)
            var payload = p.payload
            out.writeBuffer(&payload)
        case .puback(let id):
            try Self.header(.puback, flags: 0, length: 2, to: &out)
            out.writeInteger(id)
        case .subscribe(let id, let filters):
            let length = 2 + filters.reduce(0) { $0 + 3 + $1.0.utf8.count }
            try Self.header(.subscribe, flags: 0x02, length: length, to: &out)
            out.writeInteger(id)
            for (filter, qos) in filters {
                try Self.writeString(filter, to: &out)
                out.writeInteger(qos.rawValue)
            }
        case .suback(let id, let codes):
            try Self.header(.suback, flags: 0, length: 2 + codes.count, to: &out)
            out.writeInteger(id)
            out.writeBytes(codes)
        case .pingreq: try Self.header(.pingreq, flags: 0, length: 0, to: &out)
        case .pingresp: try Self.header(.pingresp, flags: 0, length: 0, to: &out)
        case .disconnect: try Self.header(.disconnect, flags: 0, length: 0, to: &out)
        }
    }

    /// Writes a PUBLISH packet's fixed and variable header only; the caller appends
    /// `payloadLength` bytes of payload after it (in pieces, to report progress on large ones).
    public static func writePublishHeader(_ p: MQTTPublish, payloadLength: Int, to out: inout ByteBuffer) throws {
        var flags = p.qos.rawValue << 1
        if p.retain { flags |= 0x01 }
        if p.duplicate { flags |= 0x08 }
        let idLength = p.qos == .atMostOnce ? 0 : 2
        try header(.publish, flags: flags, length: 2 + p.topic.utf8.count + idLength + payloadLength, to: &out)
        try writeString(p.topic, to: &out)
        if p.qos != .atMostOnce {
            guard let id = p.packetID, id != 0 else { throw MQTTProtocolError("a QoS 1 PUBLISH needs a packet id") }
            out.writeInteger(id)
        }
    }

    static func header(_ kind: Kind, flags: UInt8, length: Int, to out: inout ByteBuffer) throws {
        guard length <= maxRemainingLength else {
            throw MQTTProtocolError("a packet of \(length) bytes exceeds MQTT's limit of \(maxRemainingLength)")
        }
        out.writeInteger(kind.rawValue << 4 | flags)
        writeRemainingLength(length, to: &out)
    }

    /// The variable-length integer of section 2.2.3: seven bits a byte, low bits first.
    static func writeRemainingLength(_ length: Int, to out: inout ByteBuffer) {
        var x = length
        repeat {
            var byte = UInt8(x & 0x7F)
            x >>= 7
            if x > 0 { byte |= 0x80 }
            out.writeInteger(byte)
        } while x > 0
    }

    static func writeString(_ s: String, to out: inout ByteBuffer) throws {
        let n = s.utf8.count
        guard n <= 0xFFFF else { throw MQTTProtocolError("a string of \(n) bytes exceeds MQTT's limit of 65535") }
        out.writeInteger(UInt16(n))
        out.writeString(s)
    }
}

/// Encodes outgoing packets for a channel pipeline.
public struct MQTTPacketEncoder: MessageToByteEncoder, Sendable {
    public typealias OutboundIn = MQTTPacket

    /// Creates an encoder.
    public init() {}

    public func encode(data: MQTTPacket, out: inout ByteBuffer) throws {
        try data.write(to: &out)
    }
}
