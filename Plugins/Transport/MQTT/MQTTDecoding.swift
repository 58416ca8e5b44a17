import NIOCore

/// Reading packets from bytes (MQTT 3.1.1, sections 2 and 3).
///
/// Anything the spec forbids — a remaining length longer than four bytes, a reserved or
/// unsupported packet type, wrong fixed-header flags, fields running past the packet's end,
/// bytes left over after them — throws ``MQTTProtocolError``; the connection is then closed
/// (section 4.8: "the receiver MUST close the Network Connection").
extension MQTTPacket {
    /// Parses one packet from the front of `buffer`, consuming it; `nil` when the packet is not
    /// complete yet (nothing is consumed then).
    /// - Throws: ``MQTTProtocolError`` for a malformed packet.
    public static func parse(from buffer: inout ByteBuffer, maxPacketSize: Int = maxRemainingLength) throws
        -> MQTTPacket?
    {
        guard let first: UInt8 = buffer.getInteger(at: buffer.readerIndex) else { return nil }
        var length = 0
        var multiplier = 1
        var offset = 1
        while true {
            guard let byte: UInt8 = buffer.getInteger(at: buffer.readerIndex + offset) else { return nil }
            length += Int(byte & 0x7F) * multiplier
            offset += 1
            if byte & 0x80 == 0 { break }
            multiplier *= 128
            if offset > 4 { throw MQTTProtocolError("bad remaining length: more than four length bytes") }
        }
        guard let kind = Kind(rawValue: first >> 4) else {
            throw MQTTProtocolError("unknown packet type \(first >> 4)")
        }
        guard length <= maxPacketSize else {
            throw MQTTProtocolError("a \(kind.name) packet of \(length) bytes exceeds the limit of \(maxPacketSize)")
        }
        guard buffer.readableBytes >= offset + length else { return nil }
        buffer.moveReaderIndex(forwardBy: offset)
        var body = buffer.readSlice(length: length)!
        let packet = try parseBody(kind, flags: first & 0x0F, body: &body)
        guard body.readableBytes == 0 else {
            throw MQTTProtocolError("\(body.readableBytes) unexpected bytes at the end of a \(kind.name) packet")
        }
        return packet
    }

    private static func parseBody(_ kind: Kind, flags: UInt8, body: inout ByteBuffer) throws -> MQTTPacket {
        if kind != .publish {
            // Section 2.2.2: only PUBLISH has free flags; SUBSCRIBE, UNSUBSCRIBE and PUBREL carry 0010.
            let expected: UInt8 = [.subscribe, .unsubscribe, .pubrel].contains(kind) ? 0x02 : 0
            guard flags == expected else { throw MQTTProtocolError("invalid flags \(flags) in a \(kind.name) packet") }
        }
        switch kind {
        case .connect:
            guard try string(&body, kind) == "MQTT" else { throw MQTTProtocolError("CONNECT names another protocol") }
            let level: UInt8 = try integer(&body, kind)
            guard level == 4 else { throw MQTTProtocolError("CONNECT asks for protocol level \(level), not 4") }
            let connectFlags: UInt8 = try integer(&body, kind)
            let keepAlive: UInt16 = try integer(&body, kind)
            let clientID = try string(&body, kind)
            if connectFlags & 0x04 != 0 {
                _ = try string(&body, kind)  // will topic
                _ = try string(&body, kind)  // will message
            }
            let username = connectFlags & 0x80 != 0 ? try string(&body, kind) : nil
            let password = connectFlags & 0x40 != 0 ? try string(&body, kind) : nil
            return .connect(
                MQTTConnect(
                    clientID: clientID, keepAlive: keepAlive, cleanSession: connectFlags & 0x02 != 0,
                    username: username, password: password))
        case .connack:
            let ack: UInt8 = try integer(&body, kind)
            guard ack & 0xFE == 0 else { throw MQTTProtocolError("reserved CONNACK flags set") }
            return .connack(sessionPresent: ack == 1, returnCode: try integer(&body, kind))
        case .publish:
            guard let qos = MQTTQoS(rawValue: (flags >> 1) & 0x03) else {
                throw MQTTProtocolError("PUBLISH with unsupported QoS \((flags >> 1) & 0x03)")
            }
            let topic = try string(&body, kind)
            let id: UInt16? = qos == .atMostOnce ? nil : try integer(&body, kind)
            if id == 0 { throw MQTTProtocolError("PUBLISH with packet id 0") }
            let payload = body.readSlice(length: body.readableBytes)!
            return .publish(
                MQTTPublish(
                    topic: topic, payload: payload, qos: qos, retain: flags & 1 != 0, duplicate: flags & 8 != 0,
                    packetID: id))
        case .puback:
            return .puback(packetID: try integer(&body, kind))
        case .subscribe:
            let id: UInt16 = try integer(&body, kind)
            var filters: [(String, MQTTQoS)] = []
            while body.readableBytes > 0 {
                let filter = try string(&body, kind)
                let q: UInt8 = try integer(&body, kind)
                guard let qos = MQTTQoS(rawValue: q) else { throw MQTTProtocolError("SUBSCRIBE asks for QoS \(q)") }
                filters.append((filter, qos))
            }
            guard !filters.isEmpty else { throw MQTTProtocolError("SUBSCRIBE without a topic filter") }
            return .subscribe(packetID: id, filters: filters)
        case .suback:
            let id: UInt16 = try integer(&body, kind)
            let codes = body.readBytes(length: body.readableBytes)!
            guard !codes.isEmpty else { throw MQTTProtocolError("SUBACK without a return code") }
            return .suback(packetID: id, returnCodes: codes)
        case .pingreq: return .pingreq
        case .pingresp: return .pingresp
        case .disconnect: return .disconnect
        case .pubrec, .pubrel, .pubcomp, .unsubscribe, .unsuback:
            throw MQTTProtocolError(
                "unexpected \(kind.name) packet: this client uses QoS 0 and 1 and never unsubscribes")
        }
    }

    private static func integer<T: FixedWidthInteger>(_ body: inout ByteBuffer, _ kind: Kind) throws -> T {
        guard let v: T = body.readInteger() else { throw MQTTProtocolError("truncated \(kind.name) packet") }
        return v
    }

    private static func string(_ body: inout ByteBuffer, _ kind: Kind) throws -> String {
        let n: UInt16 = try integer(&body, kind)
        guard let bytes = body.readSlice(length: Int(n)) else {
            throw MQTTProtocolError("truncated \(kind.name) packet")
        }
        guard let s = String(validating: bytes.readableBytesView, as: UTF8.self) else {
            throw MQTTProtocolError("a string in a \(kind.name) packet is not UTF-8")
        }
        return s
    }
}

/// Decodes incoming bytes into packets for a channel pipeline; a malformed packet raises
/// ``MQTTProtocolError`` through the pipeline, and the connection handler closes the channel.
public struct MQTTPacketDecoder: ByteToMessageDecoder, Sendable {
    public typealias InboundOut = MQTTPacket
    /// The largest remaining length accepted; a larger packet is an error.
    public let maxPacketSize: Int

    /// - Parameter maxPacketSize: the largest remaining length accepted.
    public init(maxPacketSize: Int = MQTTPacket.maxRemainingLength) {
        self.maxPacketSize = maxPacketSize
    }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let packet = try MQTTPacket.parse(from: &buffer, maxPacketSize: maxPacketSize) else {
            return .needMoreData
        }
        context.fireChannelRead(wrapInboundOut(packet))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        if try decode(context: context, buffer: &buffer) == .continue { return .continue }
        if buffer.readableBytes > 0 {
            let n = buffer.readableBytes
            buffer.moveReaderIndex(forwardBy: n)
            throw MQTTProtocolError("truncated packet: the connection closed \(n) bytes into it")
        }
        return .needMoreData
    }
}
