import DAQCore

/// Subscribes to topic filters on an MQTT broker and turns each message back into samples:
/// what the `mqtt` sink wrote arrives with the same fields, types, timestamp, step path and
/// kind, stamped with this run's clock. One central `daq` collects from many edge `daq`s.
///
/// At QoS 1 the source keeps a persistent session unless `clean_session` says otherwise: its
/// client id is stable (`daq-<pipeline>-<component>-<host>`), so the broker keeps its
/// subscriptions while it is away and queues what arrives meanwhile, a broker restart included
/// when the broker persists sessions. A message seen before (same `_msg` id: a QoS 1 re-send
/// with DUP set, a spool replayed after a restart) is dropped. While more than `buffer` samples
/// wait for the pipeline, the source stops reading from the broker, and TCP flow control holds
/// the broker back.
///
/// Each sample gains where it came from (`origin`, on by default): `topic`, and `pipeline` and
/// `host` when the payload names them, as the `mqtt` sink's do. A field the sample already has
/// keeps its value.
public final class MQTTSource: SourcePlugin {
    public struct Configuration: PluginConfiguration {
        var connection = MQTTSettings()
        @Setting(
            whenUnset: "false at qos 1, true at qos 0",
            "false keeps a session: the broker holds subscriptions and QoS 1 messages while the source is away.")
        var cleanSession: Bool?
        var link = MQTTLinkSettings()
        @Setting(required: "Topic filters to subscribe to, e.g. [daq/#] or [fleet/+/accel].") var topics: [String]
        @Setting(
            type: "0 | 1", "The highest QoS asked for; at 1 the broker re-sends what this client did not acknowledge.")
        var qos = 1
        @Setting("Samples held for the pipeline; past this, reading from the broker pauses.") var buffer = 100_000
        @Setting("Message ids remembered to drop messages delivered twice.") var dedup = 100_000
        @Setting(
            "Finish after this many samples (otherwise runs until stopped); later messages are left unacknowledged to the broker, and the last message's samples all go, so it may add a few."
        )
        var count: Int?
        @Setting("skip warns and drops a message that is not samples; fail stops.")
        var onBadPayload = MQTTReceiver.BadPayload.skip
        @Setting(
            "Add where each message came from: topic, and pipeline and host when the payload names them (_pipeline, _host)."
        )
        var origin = true

        public init() {}

        public func validate() throws {
            try connection.validate()
            try link.validate(tls: connection.isTLS)
            if topics.isEmpty { throw $topics.issue("name at least one topic filter") }
            for (i, t) in topics.enumerated() {
                if let problem = Self.filterProblem(t) {
                    throw $topics.issue("'\(t)' (item \(i + 1)): \(problem)")
                }
            }
            if !(0...1).contains(qos) { throw $qos.issue("must be 0 or 1, found \(qos)") }
            if buffer < 1 { throw $buffer.issue("must be at least 1 sample") }
            if dedup < 1 { throw $dedup.issue("must be at least 1 message id") }
            if let count, count < 1 { throw $count.issue("must be at least 1") }
        }

        /// MQTT 3.1.1, section 4.7.1: `#` only as the last level, `+` only as a whole level.
        static func filterProblem(_ filter: String) -> String? {
            if filter.isEmpty { return "an empty topic filter" }
            let levels = filter.split(separator: "/", omittingEmptySubsequences: false)
            for (i, level) in levels.enumerated() {
                if level.contains("#") && (level != "#" || i != levels.count - 1) {
                    return "'#' must be a whole level, the last one"
                }
                if level.contains("+") && level != "+" { return "'+' must be a whole level" }
            }
            return nil
        }
    }

    public static let typeName = "mqtt"
    public static let summary =
        "Samples from MQTT topic filters (+, #): what the mqtt sink publishes, duplicates dropped."
    public static let output = StreamOutput(
        .free,
        [
            OutputField("topic", .string, "the topic the message came on (origin: true)"),
            OutputField("pipeline", .string, "the publishing pipeline, when the payload names it (origin: true)"),
            OutputField("host", .string, "the publishing host, when the payload names it (origin: true)"),
        ],
        note: "the sender's fields as each message brings them, then these; the sender's timestamps")

    private let config: Configuration
    /// What the client connects with; internal for tests.
    let options: MQTTClientOptions
    private let receiver: MQTTReceiver
    private var client: MQTTClient?

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        // At QoS 1 the point is not to lose messages, and what arrives while the source is
        // away (a reconnect, a broker restart) reaches it only through a kept session.
        options = try configuration.connection.clientOptions(
            context: context, cleanSession: configuration.cleanSession ?? (configuration.qos == 0),
            link: configuration.link)
        receiver = MQTTReceiver(
            limit: configuration.buffer, dedup: configuration.dedup, onBadPayload: configuration.onBadPayload,
            origin: configuration.origin, count: configuration.count)
    }

    /// The sender's fields are known only as messages bring them; declared are those this source
    /// adds. Timestamps are the sender's, carried in each payload (only the uptime is this run's),
    /// so the stream keeps the dates it was acquired at. Describing connects to nothing.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        var d = config.origin ? Self.output.descriptor(input: nil) : StreamDescriptor()
        d.timeBase = .recorded
        d.origin = StreamOrigin(plugin: Self.typeName, host: options.host)
        d.metadata["topics"] = config.topics.joined(separator: ", ")
        return d
    }

    deinit {
        receiver.detach()
        _ = client?.stop()
    }

    public func start(context: StageContext) throws {
        if let warning = options.plainPasswordWarning { context.warn(warning) }
        receiver.attach(context)
        let client = try MQTTClient(options: options, delegate: receiver)
        receiver.client = client
        self.client = client
        let qos: MQTTQoS = config.qos == 1 ? .atLeastOnce : .atMostOnce
        // Complete once the broker has answered, before the client can report it.
        receiver.completeStart(context.completeStartLater(waitingAtMost: .seconds(options.connectTimeout + 1)))
        client.subscribe(config.topics.map { ($0, qos) })
        client.start()
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        try receiver.take(into: &batch, limit: limit)
        return receiver.isSpent ? .finished : .idle
    }

    /// The run stopped the source: what it took and acknowledged before the end goes out now,
    /// and what arrives from here on is left to the broker, which keeps it for a kept session's
    /// next connection.
    public func cutShort(into batch: inout Batch, at uptime: Double, context: StageContext) throws {
        receiver.close(before: uptime, into: &batch)
    }

    /// The stage ends once the client has closed its connection (at most 2 s after DISCONNECT),
    /// so a kept session's next run finds the broker done with this one; nothing waits for it.
    public func stop(context: StageContext) {
        guard let client else { return }
        self.client = nil
        let end = context.completeEndLater(waitingAtMost: Self.closeAllowance)
        let receiver = self.receiver
        client.stop().whenComplete { _ in
            receiver.detach()
            let duplicates = receiver.duplicateCount
            if duplicates > 0 {
                context.notice("dropped \(duplicates) messages delivered twice (same _msg id)")
            }
            end.succeed()
        }
    }

    /// How long the client's close may take: it waits at most 2 s for the broker to close.
    static let closeAllowance = Duration.seconds(5)
}
