import NIOCore

/// The last handler of a client connection: sends CONNECT when the connection opens, routes
/// packets to the ``MQTTClient``, answers QoS 1 messages with PUBACK, pings when idle, and
/// closes the connection on a malformed packet or a broker that stopped answering.
///
/// # Thread safety
/// Lives on the channel's event loop, which is the client's.
final class MQTTConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = MQTTPacket
    typealias OutboundOut = ByteBuffer

    private let client: MQTTClient
    private let connect: MQTTConnect
    private let connackTimeout: TimeAmount
    private var connackTimer: Scheduled<Void>?
    private var connected = false
    private var pingOutstanding = false
    /// Why the connection is closing, when this side closes it.
    private var closeReason: String?

    init(client: MQTTClient, connect: MQTTConnect, connackTimeout: TimeAmount) {
        self.client = client
        self.connect = connect
        self.connackTimeout = connackTimeout
    }

    func channelActive(context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: 64)
        do {
            try MQTTPacket.connect(connect).write(to: &buffer)
        } catch {
            fail(context: context, "\(error)")
            return
        }
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        connackTimer = context.eventLoop.scheduleTask(in: connackTimeout) {
            let (handler, context) = loopBound.value
            handler.fail(context: context, "no CONNACK within \(handler.connackTimeout.nanoseconds / 1_000_000_000) s")
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let packet = unwrapInboundIn(data)
        pingOutstanding = false
        switch packet {
        case .connack(let sessionPresent, let code):
            connackTimer?.cancel()
            guard !connected else { return fail(context: context, "a second CONNACK") }
            guard code == 0 else {
                let refusal = MQTTConnectReturnCode(rawValue: code)
                closeReason = refusal?.explanation ?? "the broker refused the connection (code \(code))"
                client.refused(code: refusal, reason: closeReason!)
                context.close(promise: nil)
                return
            }
            connected = true
            client.didConnect(channel: context.channel, sessionPresent: sessionPresent)
        case .puback(let id) where connected:
            client.acknowledged(id)
        case .publish(let p) where connected:
            // A message the owner did not take is left unacknowledged, for the broker to send
            // again (with DUP) on the next connection.
            if client.received(p), let id = p.packetID {
                var buffer = context.channel.allocator.buffer(capacity: 4)
                try? MQTTPacket.puback(packetID: id).write(to: &buffer)
                context.write(wrapOutboundOut(buffer), promise: nil)
            }
        case .suback(let id, let codes) where connected:
            client.subscribed(packetID: id, returnCodes: codes)
        case .pingresp where connected:
            break
        default:
            fail(context: context, "unexpected \(Self.name(packet)) from the broker")
        }
    }

    private func ping(context: ChannelHandlerContext) {
        pingOutstanding = true
        var buffer = context.channel.allocator.buffer(capacity: 2)
        try? MQTTPacket.pingreq.write(to: &buffer)
        context.writeAndFlush(wrapOutboundOut(buffer), promise: nil)
    }

    func channelReadComplete(context: ChannelHandlerContext) {
        client.readComplete()
        context.flush()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { client.pump() }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let idle = event as? IdleStateHandler.IdleStateEvent else {
            return context.fireUserInboundEventTriggered(event)
        }
        switch idle {
        case .write:
            ping(context: context)
        case .read:
            // A publisher at QoS 0 writes all the time and hears nothing back: ping when nothing
            // was read for a keep-alive period, and give up when the ping got no answer either.
            if pingOutstanding {
                fail(context: context, "the broker stopped answering (no PINGRESP within the keep-alive period)")
            } else {
                ping(context: context)
            }
        case .all:
            break
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let e = error as? MQTTProtocolError {
            fail(context: context, "malformed packet from the broker: \(e.message)")
        } else {
            fail(context: context, "\(error)")
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        connackTimer?.cancel()
        client.connectionClosed(channel: context.channel, reason: closeReason ?? "the broker closed the connection")
        context.fireChannelInactive()
    }

    private func fail(context: ChannelHandlerContext, _ reason: String) {
        if closeReason == nil { closeReason = reason }
        context.close(promise: nil)
    }

    private static func name(_ p: MQTTPacket) -> String {
        switch p {
        case .connect: return "CONNECT"
        case .connack: return "CONNACK"
        case .publish: return "PUBLISH before CONNACK"
        case .puback: return "PUBACK before CONNACK"
        case .subscribe: return "SUBSCRIBE"
        case .suback: return "SUBACK before CONNACK"
        case .pingreq: return "PINGREQ"
        case .pingresp: return "PINGRESP before CONNACK"
        case .disconnect: return "DISCONNECT"
        }
    }
}
