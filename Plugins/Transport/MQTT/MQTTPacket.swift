import NIOCore

/// MQTT 3.1.1 quality of service: how many times a message may arrive.
public enum MQTTQoS: UInt8, Sendable, Comparable {
    /// At most once: fire and forget.
    case atMostOnce = 0
    /// At least once: the receiver acknowledges with PUBACK; unacknowledged messages are re-sent.
    case atLeastOnce = 1

    public static func < (a: MQTTQoS, b: MQTTQoS) -> Bool { a.rawValue < b.rawValue }
}

/// The CONNACK return codes of MQTT 3.1.1, section 3.2.2.3, with what each means to a user.
public enum MQTTConnectReturnCode: UInt8, Sendable {
    case accepted = 0
    case unacceptableProtocolVersion = 1
    case identifierRejected = 2
    case serverUnavailable = 3
    case badUsernameOrPassword = 4
    case notAuthorized = 5

    /// Why the broker refused, in a user's words.
    public var explanation: String {
        switch self {
        case .accepted: return "accepted"
        case .unacceptableProtocolVersion: return "the broker does not speak MQTT 3.1.1"
        case .identifierRejected: return "the broker rejected the client id"
        case .serverUnavailable: return "the broker is unavailable"
        case .badUsernameOrPassword: return "the broker refused the credentials (bad user name or password)"
        case .notAuthorized: return "the broker refused the credentials (not authorized)"
        }
    }
}

/// What CONNECT carries (MQTT 3.1.1, section 3.1).
public struct MQTTConnect: Sendable, Equatable {
    /// Identifies the client to the broker; a persistent session is found by it.
    public var clientID: String
    /// Seconds within which the client sends some packet; 0 turns keep-alive off.
    public var keepAlive: UInt16
    /// `true` starts a new session; `false` resumes the broker's stored one.
    public var cleanSession: Bool
    /// Sent when set; the broker may refuse it (return code 4 or 5).
    public var username: String?
    /// Sent only with a user name.
    public var password: String?

    /// Creates the fields of a CONNECT packet.
    public init(
        clientID: String, keepAlive: UInt16, cleanSession: Bool, username: String? = nil, password: String? = nil
    ) {
        self.clientID = clientID
        self.keepAlive = keepAlive
        self.cleanSession = cleanSession
        self.username = username
        self.password = password
    }
}

/// One application message of a PUBLISH packet.
public struct MQTTPublish: Sendable, Equatable {
    /// The topic name (no wildcards).
    public var topic: String
    /// The application message.
    public var payload: ByteBuffer
    /// At most once or at least once.
    public var qos: MQTTQoS
    /// Asks the broker to keep it as the topic's last message for new subscribers.
    public var retain: Bool
    /// Set on a re-sent QoS 1 message, so the receiver knows it may have seen it.
    public var duplicate: Bool
    /// Present for QoS 1.
    public var packetID: UInt16?

    /// Creates a PUBLISH's message.
    public init(
        topic: String, payload: ByteBuffer, qos: MQTTQoS, retain: Bool = false, duplicate: Bool = false,
        packetID: UInt16? = nil
    ) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
        self.duplicate = duplicate
        self.packetID = packetID
    }
}

/// The control packets this client sends and receives (MQTT 3.1.1, section 2).
public enum MQTTPacket: Sendable, Equatable {
    case connect(MQTTConnect)
    case connack(sessionPresent: Bool, returnCode: UInt8)
    case publish(MQTTPublish)
    case puback(packetID: UInt16)
    case subscribe(packetID: UInt16, filters: [(String, MQTTQoS)])
    /// Granted QoS per filter; 0x80 means the filter was refused.
    case suback(packetID: UInt16, returnCodes: [UInt8])
    case pingreq
    case pingresp
    case disconnect

    /// The packet type in the high nibble of the first byte.
    public enum Kind: UInt8, Sendable {
        case connect = 1
        case connack, publish, puback, pubrec, pubrel, pubcomp
        case subscribe, suback, unsubscribe, unsuback, pingreq, pingresp, disconnect

        /// The name the spec uses: `PUBLISH`, `PUBACK`.
        public var name: String { String(describing: self).uppercased() }
    }

    public static func == (a: MQTTPacket, b: MQTTPacket) -> Bool {
        switch (a, b) {
        case (.connect(let x), .connect(let y)): return x == y
        case (.connack(let s1, let c1), .connack(let s2, let c2)): return s1 == s2 && c1 == c2
        case (.publish(let x), .publish(let y)): return x == y
        case (.puback(let x), .puback(let y)): return x == y
        case (.subscribe(let i1, let f1), .subscribe(let i2, let f2)):
            return i1 == i2 && f1.map(\.0) == f2.map(\.0) && f1.map(\.1) == f2.map(\.1)
        case (.suback(let i1, let c1), .suback(let i2, let c2)): return i1 == i2 && c1 == c2
        case (.pingreq, .pingreq), (.pingresp, .pingresp), (.disconnect, .disconnect): return true
        default: return false
        }
    }
}

/// A packet that breaks MQTT 3.1.1: the connection that sent it is closed with this error.
public struct MQTTProtocolError: Error, CustomStringConvertible, Equatable {
    /// What is wrong, naming the packet.
    public var message: String
    /// Creates an error with its message.
    public init(_ message: String) { self.message = message }
    public var description: String { "MQTT protocol error: \(message)" }
}
