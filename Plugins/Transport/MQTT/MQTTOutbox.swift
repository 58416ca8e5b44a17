import NIOCore

/// One application message on its way to the broker.
public struct MQTTOutgoing: Sendable {
    /// The sender's own id for the message (a spool sequence number), reported back in events.
    public var token: UInt64
    /// The topic it is published on.
    public var topic: String
    /// The payload; large ones are written in pieces and report progress.
    public var payload: ByteBuffer
    /// At most once or at least once.
    public var qos: MQTTQoS
    /// Asks the broker to keep it for new subscribers.
    public var retain: Bool
    /// Samples the payload carries, so delivery can be counted in samples.
    public var samples: Int
    /// Set once the message has been given a packet id (QoS 1).
    var packetID: UInt16?
    /// Set when it is written again after a reconnect.
    var duplicate = false

    /// Creates a message; packet ids are given when it is written.
    public init(token: UInt64, topic: String, payload: ByteBuffer, qos: MQTTQoS, retain: Bool, samples: Int) {
        self.token = token
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.samples = samples
    }

    var publish: MQTTPublish {
        MQTTPublish(topic: topic, payload: payload, qos: qos, retain: retain, duplicate: duplicate, packetID: packetID)
    }
}

/// The messages a client holds: waiting to be written, and written at QoS 1 but not yet
/// acknowledged (in flight), with the packet ids that tie PUBACKs to them.
///
/// A plain value owned by the client's event loop. In-flight messages keep their order, so
/// after a reconnect they are re-sent, with the DUP flag, in the order they were first sent
/// (MQTT 3.1.1, section 4.6).
struct MQTTOutbox {
    private(set) var waiting = CircularBuffer<MQTTOutgoing>()
    private var inflight: [UInt16: MQTTOutgoing] = [:]
    /// Packet ids in the order they were sent; acknowledged ids are skipped when met.
    private var order = CircularBuffer<UInt16>()
    private var nextID: UInt16 = 1
    let maxInflight: Int

    init(maxInflight: Int) {
        self.maxInflight = max(1, min(maxInflight, 65_000))
    }

    var inflightCount: Int { inflight.count }
    var isEmpty: Bool { waiting.isEmpty && inflight.isEmpty }
    var count: Int { waiting.count + inflight.count }

    mutating func enqueue(_ message: MQTTOutgoing) {
        waiting.append(message)
    }

    /// The next message to write, when the in-flight window has room; QoS 1 messages get a
    /// packet id and count as in flight from here on.
    mutating func next() -> MQTTOutgoing? {
        guard !waiting.isEmpty else { return nil }
        if waiting.first!.qos == .atLeastOnce && inflight.count >= maxInflight { return nil }
        var m = waiting.removeFirst()
        if m.qos == .atLeastOnce {
            let id = allocateID()
            m.packetID = id
            inflight[id] = m
            order.append(id)
        }
        return m
    }

    /// The message a PUBACK acknowledges, removed; `nil` for an id not in flight.
    mutating func acknowledge(_ id: UInt16) -> MQTTOutgoing? {
        guard let m = inflight.removeValue(forKey: id) else { return nil }
        while let head = order.first, inflight[head] == nil { order.removeFirst() }
        return m
    }

    /// Every in-flight message, oldest first, marked duplicate: what to re-send after a reconnect.
    mutating func inflightForResend() -> [MQTTOutgoing] {
        var out: [MQTTOutgoing] = []
        out.reserveCapacity(inflight.count)
        for id in order {
            guard var m = inflight[id] else { continue }
            m.duplicate = true
            inflight[id] = m
            out.append(m)
        }
        order = CircularBuffer(out.map { $0.packetID! })
        return out
    }

    /// Removes and returns everything, in flight first: the messages that will never be sent
    /// when the client gives up.
    mutating func drain() -> [MQTTOutgoing] {
        var out = inflightForResend()
        out.append(contentsOf: waiting)
        waiting.removeAll()
        inflight.removeAll()
        order.removeAll()
        return out
    }

    /// The packet id SUBSCRIBE uses; publishes never take it.
    static let subscribeID: UInt16 = 0xFFFF

    private mutating func allocateID() -> UInt16 {
        // Ids cycle through 1...65534, skipping those still in flight (the window is smaller).
        func advance(_ id: UInt16) -> UInt16 { id >= Self.subscribeID - 1 ? 1 : id + 1 }
        while inflight[nextID] != nil { nextID = advance(nextID) }
        let id = nextID
        nextID = advance(nextID)
        return id
    }
}
