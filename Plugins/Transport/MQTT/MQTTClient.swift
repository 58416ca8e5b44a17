import NIOCore
import NIOPosix
import NIOSSL

/// An MQTT 3.1.1 client over SwiftNIO: connects (TCP or TLS), keeps the connection alive,
/// publishes at QoS 0 and 1 with packet-id tracking, subscribes, and reconnects with
/// exponential backoff, re-sending unacknowledged QoS 1 messages in order.
///
/// Messages handed to ``publish(_:)`` wait in the client while it is disconnected; the owner
/// bounds how many it hands over (the `mqtt` sink's queue).
///
/// # Thread safety
/// Every mutable property is read and written only on ``eventLoop``: public methods hop there.
/// That confinement is what makes the `@unchecked Sendable` safe.
public final class MQTTClient: @unchecked Sendable {
    /// The connection's options.
    public let options: MQTTClientOptions
    /// The loop that owns the client's state and its connection.
    public let eventLoop: any EventLoop
    private let delegate: any MQTTClientDelegate
    private let sslContext: NIOSSLContext?

    private enum State {
        case idle, connecting
        case connected(any Channel)
        case waiting(Scheduled<Void>)
        case stopped
    }
    private var state = State.idle
    private var outbox: MQTTOutbox
    private var attempt = 0
    private var subscriptions: [(String, MQTTQoS)] = []
    private var pendingSubscribe: (id: UInt16, filters: [String])?
    private var acked: [MQTTOutgoing] = []
    private var reading = true

    /// Creates a client; nothing happens until ``start()``.
    /// - Throws: ``TransportError`` naming the file when TLS is asked for and the CA file, the
    ///   client certificate or its key cannot be loaded, or the key is not the certificate's.
    public init(
        options: MQTTClientOptions, delegate: any MQTTClientDelegate,
        group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton
    ) throws {
        self.options = options
        self.delegate = delegate
        self.eventLoop = group.next()
        self.outbox = MQTTOutbox(maxInflight: options.maxInflight)
        if options.tls {
            var tls = TLSConfiguration.makeClientConfiguration()
            if let ca = options.caFile { tls.trustRoots = .file(ca) }
            if let cert = options.certFile, let key = options.keyFile {
                tls.certificateChain = try Self.load("cannot load cert_file '\(cert)' (PEM expected)") {
                    try NIOSSLCertificate.fromPEMFile(cert).map { .certificate($0) }
                }
                tls.privateKey = try Self.load("cannot load key_file '\(key)' (PEM expected)") {
                    .privateKey(try NIOSSLPrivateKey(file: key, format: .pem))
                }
            }
            sslContext = try Self.load(
                "cannot set up TLS from ca_file, cert_file and key_file (is the key the certificate's?)"
            ) {
                try NIOSSLContext(configuration: tls)
            }
        } else {
            sslContext = nil
        }
    }

    /// Runs `body`; its failure becomes `problem` and the library's reason, for the user.
    private static func load<T>(_ problem: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch {
            throw TransportError("\(problem): \(error)")
        }
    }

    /// Subscribes to `filters` on every connection (a clean session forgets subscriptions; a kept
    /// one is subscribed again too).
    public func subscribe(_ filters: [(String, MQTTQoS)]) {
        eventLoop.execute {
            self.subscriptions.append(contentsOf: filters)
            if case .connected(let channel) = self.state { self.sendSubscribe(on: channel) }
        }
    }

    /// Connects, and keeps reconnecting until ``stop()``.
    public func start() {
        eventLoop.execute {
            guard case .idle = self.state else { return }
            self.connect()
        }
    }

    /// Hands messages over; they are written in order once connected. After ``stop()`` or a
    /// refused connection they stay queued, and the next ``stop()`` returns them.
    public func publish(_ messages: [MQTTOutgoing]) {
        eventLoop.execute {
            for m in messages { self.outbox.enqueue(m) }
            self.pump()
        }
    }

    /// Stops or resumes reading from the broker: a receiver that cannot keep up stops reading,
    /// and TCP flow control holds the broker back.
    public func setReading(_ on: Bool) {
        eventLoop.execute {
            guard self.reading != on else { return }
            self.reading = on
            if case .connected(let channel) = self.state {
                channel.setOption(ChannelOptions.autoRead, value: on).whenComplete { _ in }
            }
        }
    }

    /// Sends DISCONNECT, closes the connection and stops reconnecting.
    /// - Returns: the messages never acknowledged (or, at QoS 0, never written), oldest first.
    public func stop() -> EventLoopFuture<[MQTTOutgoing]> {
        eventLoop.submit { () -> EventLoopFuture<[MQTTOutgoing]> in
            let previous = self.state
            self.state = .stopped
            let left = self.outbox.drain()
            switch previous {
            case .waiting(let task):
                task.cancel()
            case .connected(let channel):
                var buffer = channel.allocator.buffer(capacity: 2)
                try? MQTTPacket.disconnect.write(to: &buffer)
                // Closing a socket with unread input sends RST, and a broker may then lose the
                // PUBACKs still in its receive queue and send those messages again to the next
                // session. So: DISCONNECT, close the output only, read (and leave
                // unacknowledged) whatever still comes, and let the broker close; at most 2 s.
                return channel.setOption(ChannelOptions.autoRead, value: true)
                    .flatMap { channel.writeAndFlush(buffer) }
                    .flatMap { channel.close(mode: .output) }
                    .flatMap { () -> EventLoopFuture<Void> in
                        let bound = channel.eventLoop.scheduleTask(in: .seconds(2)) { channel.close(promise: nil) }
                        return channel.closeFuture.always { _ in bound.cancel() }
                    }
                    .recover { _ in channel.close(promise: nil) }
                    .map { left }
            default:
                break
            }
            return self.eventLoop.makeSucceededFuture(left)
        }.flatMap { $0 }
    }

    // MARK: - Connection

    private func connect() {
        state = .connecting
        attempt += 1
        let connectPacket = MQTTConnect(
            clientID: options.clientID, keepAlive: options.keepAlive, cleanSession: options.cleanSession,
            username: options.username, password: options.password)
        let ssl = sslContext
        let host = options.host
        let keepAlive = TimeAmount.seconds(Int64(options.keepAlive))
        let timeout = TimeAmount.nanoseconds(Int64(options.connectTimeout * 1e9))
        ClientBootstrap(group: eventLoop)
            .connectTimeout(timeout)
            .channelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            .channelInitializer { [self] channel in
                channel.eventLoop.makeCompletedFuture {
                    let sync = channel.pipeline.syncOperations
                    if let ssl {
                        let name = options.hostIsAddress ? nil : host
                        try sync.addHandler(NIOSSLClientHandler(context: ssl, serverHostname: name))
                    }
                    if options.keepAlive > 0 {
                        try sync.addHandler(IdleStateHandler(readTimeout: keepAlive, writeTimeout: keepAlive))
                    }
                    try sync.addHandler(
                        ByteToMessageHandler(MQTTPacketDecoder(maxPacketSize: options.maxPacketSize)))
                    try sync.addHandler(
                        MQTTConnectionHandler(client: self, connect: connectPacket, connackTimeout: timeout))
                }
            }
            .connect(host: options.host, port: options.port)
            .whenFailure { error in
                self.retry(after: "cannot reach the MQTT broker at \(self.options.address) (\(Self.describe(error)))")
            }
    }

    func didConnect(channel: any Channel, sessionPresent: Bool) {
        guard case .connecting = state else {
            channel.close(promise: nil)
            return
        }
        state = .connected(channel)
        attempt = 0
        if !reading { channel.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in } }
        delegate.mqttConnected(address: options.address, sessionPresent: sessionPresent)
        // Subscribed again even when the broker kept the session: the topics may have changed
        // since it was made, the owner waits for the SUBACK, and a repeated SUBSCRIBE replaces
        // the kept subscription without interrupting its flow (MQTT 3.1.1, 3.8.4).
        if !subscriptions.isEmpty { sendSubscribe(on: channel) }
        // Section 4.4: unacknowledged QoS 1 messages go again, first, in their order, with DUP set.
        let again = outbox.inflightForResend()
        if !again.isEmpty { write(again, on: channel) }
        pump()
    }

    func refused(code: MQTTConnectReturnCode?, reason: String) {
        guard case .connecting = state else { return }
        switch code {
        case .serverUnavailable?:
            retry(after: "the MQTT broker at \(options.address) is unavailable")
        default:
            // Credentials, protocol level and client id will not get better by retrying.
            state = .stopped
            let who = options.username.map { " for user '\($0)'" } ?? ""
            delegate.mqttConnectionProblem(
                "the MQTT broker at \(options.address) refused the connection\(who): \(reason)", retryIn: nil)
        }
    }

    func connectionClosed(channel: any Channel, reason: String) {
        switch state {
        case .connected(let c) where c === channel:
            retry(after: "lost the connection to the MQTT broker at \(options.address): \(reason)")
        case .connecting:
            retry(after: "the MQTT broker at \(options.address) closed the connection while connecting: \(reason)")
        default:
            break
        }
    }

    private func retry(after problem: String) {
        guard !isStopped else { return }
        // The first retry after a loss waits `reconnectDelay` too: a broker restarting is
        // rarely back at once, and every client of a fleet retrying at once would not help it.
        let delay = min(options.maxReconnectDelay, options.reconnectDelay * Double(1 << min(max(attempt - 1, 0), 20)))
        delegate.mqttConnectionProblem(
            "\(problem); retrying in \(Self.seconds(delay)) s (attempt \(attempt + 1))", retryIn: delay)
        state = .waiting(eventLoop.scheduleTask(in: .nanoseconds(Int64(delay * 1e9))) { self.connect() })
    }

    private var isStopped: Bool {
        if case .stopped = state { return true }
        return false
    }

    // MARK: - Subscriptions

    private func sendSubscribe(on channel: any Channel) {
        let id = MQTTOutbox.subscribeID
        pendingSubscribe = (id, subscriptions.map(\.0))
        var buffer = channel.allocator.buffer(capacity: 64)
        do {
            try MQTTPacket.subscribe(packetID: id, filters: subscriptions).write(to: &buffer)
        } catch {
            delegate.mqttConnectionProblem("cannot subscribe: \(error)", retryIn: nil)
            return
        }
        channel.writeAndFlush(buffer, promise: nil)
    }

    func subscribed(packetID: UInt16, returnCodes: [UInt8]) {
        guard let pending = pendingSubscribe, pending.id == packetID else { return }
        pendingSubscribe = nil
        delegate.mqttSubscribed(pending.filters, returnCodes: returnCodes)
    }

    // MARK: - Messages

    func acknowledged(_ id: UInt16) {
        if let m = outbox.acknowledge(id) { acked.append(m) }
        if acked.count >= 4096 { readComplete() }
    }

    /// Whether the owner took `message`; only then is it acknowledged.
    func received(_ message: MQTTPublish) -> Bool {
        delegate.mqttTake(message)
    }

    /// Reports the acknowledgements of one read in one call: a PUBACK per message at high rates
    /// would otherwise mean an event per message.
    func readComplete() {
        guard !acked.isEmpty else { return }
        let done = acked
        acked.removeAll(keepingCapacity: true)
        delegate.mqttDelivered(done)
        pump()
    }

    /// Writes waiting messages while the in-flight window and the channel have room.
    func pump() {
        guard case .connected(let channel) = state else { return }
        var batch: [MQTTOutgoing] = []
        while channel.isWritable, let m = outbox.next() {
            batch.append(m)
            if batch.count >= 1024 {
                write(batch, on: channel)
                batch.removeAll()
            }
        }
        if !batch.isEmpty { write(batch, on: channel) }
    }

    /// A write completed: QoS 0 messages that did not get out are failed; QoS 1 ones stay in
    /// flight and go again after the reconnect.
    func written(_ messages: [MQTTOutgoing], _ result: Result<Void, any Error>) {
        switch result {
        case .success:
            delegate.mqttWritten(messages)
        case .failure(let error):
            let lost = messages.filter { $0.qos == .atMostOnce }
            if !lost.isEmpty {
                delegate.mqttFailed(
                    lost,
                    reason:
                        "the connection to \(options.address) closed before it was written (\(Self.describe(error)))")
            }
        }
    }

    func progress(_ message: MQTTOutgoing, bytes: Int, total: Int) {
        delegate.mqttProgress(message, bytes: bytes, total: total)
    }

    func forget(_ id: UInt16) -> MQTTOutgoing? {
        outbox.acknowledge(id)
    }

    func delegate(failed messages: [MQTTOutgoing], reason: String) {
        delegate.mqttFailed(messages, reason: reason)
    }
}
