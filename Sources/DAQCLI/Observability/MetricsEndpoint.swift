import DAQCore
import Metrics
import NIOCore
import NIOHTTP1
import NIOPosix
import Prometheus
import Synchronization

/// The Prometheus endpoint of `daq run`: `GET /metrics` in the text exposition format.
///
/// It bootstraps swift-metrics with swift-prometheus's factory before the pipeline is built,
/// so the stages' instruments land in the registry it serves. One event-loop thread answers
/// scrapes; the pipeline's queues never do.
final class MetricsEndpoint: Sendable {
    let registry: PrometheusCollectorRegistry
    let group: MultiThreadedEventLoopGroup
    let channel: any Channel

    /// A connection that sends nothing for this long (a request half sent, or none) is closed.
    static let idleTimeout = TimeAmount.seconds(10)
    /// Connections open at once; one more is closed as it comes, so a flood of them holds a few
    /// descriptors for at most ``idleTimeout``, never the process's whole allowance.
    static let maxConnections = 32

    /// Binds `spec`'s address and prints where it serves, with the port a `:0` address took.
    static func start(_ spec: MetricsSpec) throws -> MetricsEndpoint {
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let open = ConnectionCount()
        do {
            let channel = try ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelInitializer { channel in
                    guard open.enter(below: Self.maxConnections) else { return channel.close() }
                    channel.closeFuture.whenComplete { _ in open.leave() }
                    return channel.pipeline.addHandler(IdleStateHandler(readTimeout: Self.idleTimeout)).flatMap {
                        channel.pipeline.configureHTTPServerPipeline()
                    }.flatMap {
                        channel.pipeline.addHandler(ScrapeHandler(registry: registry))
                    }
                }
                .bind(host: spec.prometheusHost, port: spec.prometheusPort).wait()
            let endpoint = MetricsEndpoint(registry: registry, group: group, channel: channel)
            let port = channel.localAddress?.port ?? spec.prometheusPort
            let host = spec.prometheusHost.contains(":") ? "[\(spec.prometheusHost)]" : spec.prometheusHost
            printError("daq: metrics: http://\(host):\(port)/metrics")
            return endpoint
        } catch {
            try? group.syncShutdownGracefully()
            throw MetricsEndpointError(address: "\(spec.prometheusHost):\(spec.prometheusPort)", reason: "\(error)")
        }
    }

    private init(registry: PrometheusCollectorRegistry, group: MultiThreadedEventLoopGroup, channel: any Channel) {
        self.registry = registry
        self.group = group
        self.channel = channel
    }

    /// Closes the listening socket and its thread.
    func stop() {
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// The endpoint's open connections, counted on its one event loop and read nowhere else.
private final class ConnectionCount: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one more connection unless `limit` are open; returns whether it was counted.
    func enter(below limit: Int) -> Bool {
        if count.add(1, ordering: .relaxed).newValue <= limit { return true }
        count.subtract(1, ordering: .relaxed)
        return false
    }

    func leave() { count.subtract(1, ordering: .relaxed) }
}

struct MetricsEndpointError: Error, CustomStringConvertible {
    var address: String
    var reason: String
    var description: String { "cannot listen on \(address): \(reason)" }
}

/// Answers `GET /metrics` (and `/`) with the registry's text; anything else is 404 or 405.
private final class ScrapeHandler: ChannelInboundHandler, Sendable {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let registry: PrometheusCollectorRegistry

    init(registry: PrometheusCollectorRegistry) { self.registry = registry }

    /// A connection idle past ``MetricsEndpoint/idleTimeout`` is closed.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = unwrapInboundIn(data) else { return }
        let path = head.uri.split(separator: "?", maxSplits: 1).first.map(String.init) ?? head.uri
        var status = HTTPResponseStatus.ok
        var body: [UInt8]
        if head.method != .GET {
            status = .methodNotAllowed
            body = Array("only GET\n".utf8)
        } else if path == "/metrics" || path == "/" {
            body = registry.emitToBuffer()
        } else {
            status = .notFound
            body = Array("not found; try /metrics\n".utf8)
        }
        var headers = HTTPHeaders()
        headers.add(
            name: "Content-Type", value: status == .ok ? "text/plain; version=0.0.4; charset=utf-8" : "text/plain")
        headers.add(name: "Content-Length", value: "\(body.count)")
        headers.add(name: "Connection", value: "close")
        context.write(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: status, headers: headers))),
            promise: nil)
        context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: body)))), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in context.close(promise: nil) }
        body = []
    }
}
