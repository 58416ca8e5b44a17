import NIOCore
import NIOHTTP1
import NIOPosix
import Synchronization

/// The live view: an HTTP server on one event-loop thread, fed from a run's control socket.
///
/// `daq run --view` starts one beside its run, `daq view` one beside someone else's. It has the
/// metrics endpoint's limits: a connection silent for ``idleTimeout`` in the middle of a
/// request is closed, and at most ``maxConnections`` are open at once.
///
/// # Thread safety
/// Its lifecycle is one `enum State` behind a `Mutex`; the handlers run on the event loop, the
/// feed on its own threads (``ViewFeed``).
final class ViewServer: Sendable {
    /// A connection that sends nothing for this long while a request is awaited is closed.
    static let idleTimeout = TimeAmount.seconds(10)
    /// Connections open at once, event streams included; one more is closed as it comes.
    static let maxConnections = 32
    /// A page's outbound buffer: past the high mark the connection is not writable and frames
    /// for it are dropped, so a stalled page holds at most this much.
    static let waterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 64 * 1024, high: 256 * 1024)
    static let idleHandlerName = "daq.view.idle"

    /// What every connection's handler reads.
    struct Shared: Sendable {
        let hub: ViewHub
        let access: ViewAccess
        /// The control socket the buttons talk to: a batch moves it to each recording's run.
        let target: ViewTarget
        let page: [UInt8]
    }

    private enum State {
        case idle
        /// `feed` is `nil` while a batch has no run to show.
        case serving(group: MultiThreadedEventLoopGroup, channel: any Channel, feed: ViewFeed?)
        case stopped
    }
    private let state = Mutex(State.idle)
    let hub = ViewHub()
    private let target = ViewTarget()

    init() {}

    /// Starts reading the run at control socket `socket` (none yet: `nil`) and serving its view at `listen`.
    /// - Returns: the URL to open, with the port a `:0` address took and the token when one is needed.
    /// - Throws: ``ControlError`` when the run does not answer; ``ViewServerError`` when the
    ///   address cannot be bound.
    ///   - onEnded: called once the run has ended.
    func start(
        socket: String?, listen: ViewListen, access: ViewAccess, onEnded: @escaping @Sendable () -> Void = {}
    ) throws -> String {
        let feed = socket.map { ViewFeed(socket: $0, hub: hub, onEnded: onEnded) }
        try feed?.start()
        target.socket.withLock { $0 = socket }
        let shared = Shared(hub: hub, access: access, target: target, page: ViewPage.html)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let open = ViewConnectionCount()
        let channel: any Channel
        do {
            channel = try ServerBootstrap(group: group)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.writeBufferWaterMark, value: Self.waterMark)
                .childChannelInitializer { channel in
                    guard open.enter(below: Self.maxConnections) else { return channel.close() }
                    channel.closeFuture.whenComplete { _ in open.leave() }
                    return channel.eventLoop.makeCompletedFuture {
                        let sync = channel.pipeline.syncOperations
                        try sync.addHandler(IdleStateHandler(readTimeout: Self.idleTimeout), name: Self.idleHandlerName)
                        try sync.configureHTTPServerPipeline(withErrorHandling: true)
                        try sync.addHandler(ViewHTTPHandler(shared: shared))
                    }
                }
                .bind(host: listen.host, port: listen.port).wait()
        } catch {
            feed?.stop()
            try? group.syncShutdownGracefully()
            throw ViewServerError(address: "\(listen.host):\(listen.port)", reason: "\(error)")
        }
        let transition = state.withLock { s -> Bool in
            guard case .idle = s else { return false }
            s = .serving(group: group, channel: channel, feed: feed)
            return true
        }
        guard transition else {
            feed?.stop()
            try? channel.close().wait()
            try? group.syncShutdownGracefully()
            throw ViewServerError(address: "\(listen.host):\(listen.port)", reason: "the view was started already")
        }
        let port = channel.localAddress?.port ?? listen.port
        var url = "http://\(listen.urlHost):\(port)/"
        if case .token(let token) = access { url += "?token=\(token)" }
        return url
    }

    /// Shows the run at control socket `socket` from now on, titled `title`, in place of the
    /// one shown so far: pages clear what they show and follow the new run. For a batch.
    func follow(socket: String?, title: String) {
        let generation = hub.reset(title: title)
        let feed = socket.map { ViewFeed(socket: $0, hub: hub, generation: generation) }
        let previous = state.withLock { s -> ViewFeed? in
            guard case .serving(let group, let channel, let old) = s else { return nil }
            s = .serving(group: group, channel: channel, feed: feed)
            return old
        }
        previous?.stop()
        target.socket.withLock { $0 = socket }
        // A run that ended in between has nothing to show; the next one will.
        do { try feed?.start() } catch { hub.publish(log: ViewFrame.log(level: "info", text: "\(error)", t: 0)) }
    }

    /// Stops the feed, closes every connection and the listening socket, and ends the thread.
    func stop() {
        let serving = state.withLock { s -> (MultiThreadedEventLoopGroup, any Channel, ViewFeed?)? in
            guard case .serving(let group, let channel, let feed) = s else {
                s = .stopped
                return nil
            }
            s = .stopped
            return (group, channel, feed)
        }
        guard let (group, channel, feed) = serving else { return }
        feed?.stop()
        hub.finishAll()
        try? channel.close().wait()
        try? group.syncShutdownGracefully()
    }
}

/// The control socket the view's buttons talk to now.
final class ViewTarget: Sendable {
    let socket = Mutex<String?>(nil)
}

/// The view's open connections.
private final class ViewConnectionCount: Sendable {
    private let count = Atomic<Int>(0)

    /// Counts one more connection unless `limit` are open; returns whether it was counted.
    func enter(below limit: Int) -> Bool {
        if count.add(1, ordering: .relaxed).newValue <= limit { return true }
        count.subtract(1, ordering: .relaxed)
        return false
    }

    func leave() { count.subtract(1, ordering: .relaxed) }
}

/// The view's address could not be bound.
struct ViewServerError: Error, CustomStringConvertible {
    var address: String
    var reason: String
    var description: String { "cannot serve the view on \(address): \(reason)" }
}
