import DAQCore
import Foundation
import NIOCore

/// Publishes samples to an MQTT broker: one sample per message, or `batch_size` samples as a
/// JSON array, on a topic rendered from a template, at QoS 0 or 1.
///
/// Per message the stage reports, as the message observer of a messaging SDK would: *sent*
/// (handed to the transport; large payloads also report their bytes as *progress* while they
/// are written), *delivered* (PUBACK at QoS 1; written to the connection at QoS 0, which has no
/// acknowledgement) and *failed* with the reason; each of these comes with a `messages` event
/// naming the messages it concerns by their `_msg` ids. While the broker is away, messages wait in a
/// bounded queue (`queue`; a full queue holds the pipeline back: the sink refuses input, which
/// holds no thread, until messages settle); with `spool: DIR` they are
/// also written to disk before `write` returns, and what the broker had not acknowledged when
/// `daq` stopped is re-sent first by the next run.
public final class MQTTSink: SinkPlugin, DeferredWork {
    public struct Configuration: PluginConfiguration {
        var connection = MQTTSettings()
        @Setting("false asks the broker to keep subscriptions and QoS 1 messages across connections.")
        var cleanSession = true
        var link = MQTTLinkSettings()
        @Setting("Topic template: {pipeline}, {component}, {stream}, {kind} or any field name.")
        var topic = "daq/{pipeline}/{stream}"
        @Setting(
            type: "0 | 1", "1: the broker acknowledges every message (delivered), unacknowledged ones are re-sent.")
        var qos = 1
        @Setting("Ask the broker to keep the last message of each topic for new subscribers.") var retain = false
        @Setting("Samples per message; above 1 a message is a JSON array of samples.") var batchSize = 1
        @Setting("Also publish step-marker samples.") var markers = false
        @Setting("Messages held while unacknowledged or disconnected; a full queue holds the pipeline back.")
        var queue = 10_000
        @Setting("Directory keeping unacknowledged messages on disk, re-sent first by the next run.") var spool: String?
        @Setting("At the end, how long to wait for acknowledgements.") var drainTimeout = Seconds(10)
        @Setting("QoS 1 messages written and not yet acknowledged, at most.") var maxInflight = 1000

        public init() {}

        public func validate() throws {
            try connection.validate()
            try link.validate(tls: connection.isTLS)
            _ = try TopicTemplate(topic)
            if !(0...1).contains(qos) { throw $qos.issue("must be 0 or 1, found \(qos)") }
            if batchSize < 1 { throw $batchSize.issue("must be at least 1") }
            if queue < 1 { throw $queue.issue("must be at least 1 message") }
            if let spool, spool.isEmpty { throw $spool.issue("name a directory") }
            if drainTimeout.value < 0 { throw $drainTimeout.issue("must not be negative") }
            if !(1...65000).contains(maxInflight) { throw $maxInflight.issue("must be 1 to 65000") }
        }
    }

    public static let typeName = "mqtt"
    public static let summary =
        "Publishes samples as JSON to an MQTT broker (QoS 0/1, retain, spool) with delivery tracking."

    private let config: Configuration
    private let options: MQTTClientOptions
    private let template: TopicTemplate
    private let spoolPath: String?
    private let pipeline: String
    private let component: String
    private var ledger: MQTTSinkLedger!
    private var client: MQTTClient?
    private var encoder: MessageEncoder
    private var drain = EndOfInputDrain.running

    /// Room in the queue, or the client gave up (the next write throws its reason).
    public var acceptsInput: Bool { ledger?.hasRoom ?? true }

    /// After the input ends, the stage stays open while messages are unacknowledged, for at
    /// most `drain_timeout`, without a thread waiting: each settled message wakes it.
    public var hasPendingWork: Bool {
        guard case .draining = drain, let ledger else { return false }
        let (count, gaveUp) = ledger.unsettled
        return count > 0 && !gaveUp
    }

    public func inputEnded() {
        guard case .running = drain, let context = ledger?.stage else { return }
        let me = QueueConfined(self)
        let timer = context.after(.seconds(config.drainTimeout.value)) {
            guard let sink = me.value, case .draining = sink.drain else { return }
            sink.drain = .timedOut
            context.wake()
        }
        drain = .draining(since: ContinuousClock.now, timer: timer)
    }

    /// `markers: false` leaves them out of what is sent.
    public var sendsMarkers: Bool { config.markers }

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        options = try configuration.connection.clientOptions(
            context: context, cleanSession: configuration.cleanSession, link: configuration.link)
        template = try TopicTemplate(configuration.topic)
        spoolPath = configuration.spool.map(context.resolve)
        pipeline = context.pipelineName
        component = context.componentName
        var o = options
        o.maxInflight = configuration.maxInflight
        encoder = MessageEncoder(
            clientID: o.clientID,
            origin: SamplePayload.origin(pipeline: context.pipelineName, host: MQTTSettings.hostName),
            qos: configuration.qos == 1 ? .atLeastOnce : .atMostOnce,
            retain: configuration.retain,
            batchSize: configuration.batchSize, markers: configuration.markers)
    }

    deinit {
        // A run cancelled before `finish`: no callback may outlive the stage.
        ledger?.detach()
        _ = client?.stop()
    }

    public func start(context: StageContext) throws {
        if let warning = options.plainPasswordWarning { context.warn(warning) }
        var spool: MessageSpool?
        var recovered: [MQTTOutgoing] = []
        if let spoolPath {
            let (opened, messages) = try MessageSpool.open(directory: spoolPath)
            spool = opened
            do {
                recovered = try Self.outgoing(messages, spool: spoolPath)
            } catch {
                // Nothing started yet: the directory is free for a run that can read it.
                opened.close()
                throw error
            }
        }
        ledger = MQTTSinkLedger(capacity: config.queue, spool: spool)
        ledger.attach(context)
        var o = options
        o.maxInflight = config.maxInflight
        let client = try MQTTClient(options: o, delegate: ledger)
        self.client = client
        encoder.startSequence(runStart: context.startDate)
        // The run goes on once the broker has answered (or given up for good), as before, but
        // the engine waits for that off the pool.
        ledger.completeStart(context.completeStartLater(waitingAtMost: .seconds(o.connectTimeout + 1)))
        client.start()
        try ledger.check()
        if let spool {
            context.spooled(samples: spool.spooledSamples)
            if !recovered.isEmpty {
                let samples = recovered.reduce(0) { $0 + $1.samples }
                context.notice(
                    "re-sending \(recovered.count) messages (\(samples) samples) left in the spool \(spoolPath!) by an earlier run"
                )
                try ledger.reserve(recovered.count)
                // Before the client has them, so no acknowledgement can be reported ahead of this.
                context.messages(.sent, ids: recovered.compactMap(\.messageID))
                client.publish(recovered)
            }
        }
    }

    /// The messages an earlier run left in the spool, as the client sends them.
    /// - Throws: ``SpoolError`` for a record whose options hold no QoS (damage, or another
    ///   sink's record, such as a `postgres` flush).
    private static func outgoing(_ messages: [MessageSpool.Message], spool: String) throws -> [MQTTOutgoing] {
        let allocator = ByteBufferAllocator()
        return try messages.map { m in
            guard let (qos, retain) = MQTTSpoolOptions.decode(m.options) else {
                throw SpoolError("the spool \(spool) holds message \(m.sequence), which is not an MQTT message")
            }
            return MQTTOutgoing(
                token: m.sequence, topic: m.key, payload: allocator.buffer(bytes: m.payload), qos: qos,
                retain: retain, samples: m.samples)
        }
    }

    public func write(_ batch: Batch, context: StageContext) throws {
        guard let client else { return }
        try ledger.check()
        let messages = try encoder.encode(
            batch, template: template, pipeline: pipeline, component: component, spool: ledger.spool)
        guard !messages.isEmpty else { return }
        if let spool = ledger.spool { context.spooled(samples: spool.spooledSamples) }
        context.wrote(bytes: messages.reduce(0) { $0 + $1.payload.readableBytes })
        try ledger.reserve(messages.count)
        // Before the client has them, so no acknowledgement can be reported ahead of this.
        context.messages(.sent, ids: messages.compactMap(\.messageID))
        client.publish(messages)
    }

    /// How long the client's close may take beyond drain_timeout: it waits at most 2 s for the
    /// broker to close the connection after DISCONNECT.
    static let closeAllowance = 5.0

    /// The stage ends once the client has closed and said what it could not deliver; nothing
    /// waits for that meanwhile (``StageContext/completeEndLater(waitingAtMost:)``).
    public func finish(context: StageContext) throws {
        guard let client else { return }
        self.client = nil
        // What is left to wait for here is what `write` sent after the input ended (the run's
        // final step marker), in what remains of drain_timeout.
        let rest = drain.secondsLeft(of: config.drainTimeout.value)
        drain.end()
        let end = context.completeEndLater(waitingAtMost: .seconds(rest + Self.closeAllowance))
        let me = QueueConfined(self)
        let timer = context.after(.seconds(rest)) { me.value?.closeClient(client, end: end, context: context) }
        drain = .closing(timer: timer)
        ledger.whenSettled { context.perform { me.value?.closeClient(client, end: end, context: context) } }
    }

    /// Every message settled or drain_timeout passed, whichever came first: the client closes.
    private func closeClient(_ client: MQTTClient, end: EndCompletion, context: StageContext) {
        guard case .closing = drain else { return }
        drain.end()
        let me = QueueConfined(self)
        client.stop().whenComplete { result in
            context.perform {
                guard let sink = me.value else { return end.succeed() }
                sink.closed(leaving: (try? result.get()) ?? [], end: end, context: context)
            }
        }
    }

    /// Accounts for what the closed client never had acknowledged, then ends the stage.
    private func closed(leaving left: [MQTTOutgoing], end: EndCompletion, context: StageContext) {
        defer { ledger.detach() }
        let samples = left.reduce(0) { $0 + $1.samples }
        if let spool = ledger.spool {
            spool.close()
            context.spooled(samples: spool.spooledSamples)
            if samples > 0 {
                context.notice(
                    "\(samples) samples wait in the spool \(spoolPath!) for the next run (\(ledger.problem ?? "not acknowledged in time"))"
                )
            }
        } else if samples > 0 {
            let why = ledger.problem.map { "; last problem: \($0)" } ?? ""
            // Without a spool nothing keeps them for the next run: under dead_letter they go to `.dead`.
            context.failed(
                samples: samples,
                message:
                    "not acknowledged by the MQTT broker at \(options.address) within drain_timeout (\(config.drainTimeout.value) s)\(why)",
                raw: left.map(\.text)
            )
            context.messages(.failed, ids: left.compactMap(\.messageID))
        }
        do {
            try ledger.check()
            end.succeed()
        } catch {
            end.fail(error)
        }
    }
}
