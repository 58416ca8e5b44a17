import DAQTransport
import NIOCore
import NIOPosix
import Testing

/// A tiny NIO server on loopback that answers CONNECT with CONNACK and then with bytes no MQTT
/// broker may send: the client must close the connection with a clear error, not crash.
@Suite("MQTT client against a malformed peer", .timeLimit(.minutes(20)))
struct MalformedPeerTests {
    /// Answers the first bytes it reads with `reply`, and nothing after.
    final class Replier: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        typealias OutboundOut = ByteBuffer
        let reply: [UInt8]
        private var replied = false
        init(reply: [UInt8]) { self.reply = reply }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            guard !replied else { return }
            replied = true
            context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: reply)), promise: nil)
        }
    }

    static func server(replying reply: [UInt8]) throws -> any Channel {
        try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(Replier(reply: reply))
                }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
    }

    @Test(arguments: [
        ([UInt8]([0x20, 0x02, 0x00, 0x00, 0x00, 0x00]), "malformed packet from the broker: unknown packet type 0"),
        ([0x20, 0x02, 0x00, 0x00, 0x30, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F], "bad remaining length"),
        ([0x20, 0x02, 0x00, 0x00, 0x40, 0x01, 0x00], "truncated PUBACK"),
        (
            [0x20, 0x02, 0x00, 0x00, 0x82, 0x06, 0x00, 0x01, 0x00, 0x01, 0x61, 0x00],
            "unexpected SUBSCRIBE from the broker"
        ),
        ([0x20, 0x03, 0x00, 0x00, 0x00], "unexpected bytes at the end of a CONNACK"),
    ])
    func malformedPacketClosesTheConnection(reply: [UInt8], message: String) throws {
        let server = try Self.server(replying: reply)
        defer { try? server.close().wait() }
        var options = MQTTClientOptions(host: "127.0.0.1", port: server.localAddress!.port!, clientID: "malformed-test")
        options.reconnectDelay = 5  // one attempt is enough to see
        let delegate = RecordingDelegate()
        let client = try MQTTClient(options: options, delegate: delegate)
        client.start()
        let closed = delegate.recorder.wait { events in
            events.contains { if case .problem(let m, true) = $0 { m.contains(message) } else { false } }
        }
        #expect(closed, "problems: \(delegate.problems)")
        #expect(delegate.problems.first?.contains("retrying in") == true)
        _ = try client.stop().wait()
    }

    @Test func aPeerThatStopsAnsweringPingsIsLeft() throws {
        // CONNACK, then silence: PINGREQ after a keep-alive period, the connection closed after
        // another without PINGRESP.
        let server = try Self.server(replying: [0x20, 0x02, 0x00, 0x00])
        defer { try? server.close().wait() }
        var options = MQTTClientOptions(host: "127.0.0.1", port: server.localAddress!.port!, clientID: "silent-test")
        options.keepAlive = 1
        options.reconnectDelay = 5
        let delegate = RecordingDelegate()
        let client = try MQTTClient(options: options, delegate: delegate)
        client.start()
        #expect(
            delegate.recorder.wait { events in
                events.contains {
                    if case .problem(let m, true) = $0 { m.contains("stopped answering") } else { false }
                }
            }, "problems: \(delegate.problems)")
        _ = try client.stop().wait()
    }

    @Test func aConnectionClosedMidPacketIsReported() throws {
        // CONNACK, then the first two bytes of a PUBACK, then the server closes.
        final class HalfWriter: ChannelInboundHandler, Sendable {
            typealias InboundIn = ByteBuffer
            typealias OutboundOut = ByteBuffer
            func channelRead(context: ChannelHandlerContext, data: NIOAny) {
                let bytes: [UInt8] = [0x20, 0x02, 0x00, 0x00, 0x40, 0x02, 0x00]
                let ctx = NIOLoopBound(context, eventLoop: context.eventLoop)
                context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(bytes: bytes))).whenComplete {
                    _ in
                    ctx.value.close(promise: nil)
                }
            }
        }
        let server = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(HalfWriter()) }
            }
            .bind(host: "127.0.0.1", port: 0).wait()
        defer { try? server.close().wait() }
        var options = MQTTClientOptions(host: "127.0.0.1", port: server.localAddress!.port!, clientID: "half-test")
        options.reconnectDelay = 5
        let delegate = RecordingDelegate()
        let client = try MQTTClient(options: options, delegate: delegate)
        client.start()
        #expect(
            delegate.recorder.wait { events in
                events.contains {
                    if case .problem(let m, true) = $0 {
                        m.contains("lost the connection") && m.contains("truncated packet")
                    } else {
                        false
                    }
                }
            }, "problems: \(delegate.problems)")
        _ = try client.stop().wait()
    }
}
