/// What an ``MQTTClient`` tells its owner: connection changes, the fate of each message, and
/// messages received — the message observer of a messaging SDK.
///
/// Every method is called on the client's event loop and must not block it. Each has an empty
/// default, so an owner implements only what it needs.
public protocol MQTTClientDelegate: AnyObject, Sendable {
    /// CONNACK accepted the connection.
    func mqttConnected(address: String, sessionPresent: Bool)
    /// The connection failed or was lost. `retryIn` is the delay before the next attempt, or
    /// `nil` when the client gave up (the broker refused the credentials, a protocol error it
    /// cannot get past) and `message` says why.
    func mqttConnectionProblem(_ message: String, retryIn: Double?)
    /// Messages were written whole to the connection (the kernel has them): QoS 0 messages
    /// are done; QoS 1 messages wait for PUBACK.
    func mqttWritten(_ messages: [MQTTOutgoing])
    /// Part of a large message's payload was written: `bytes` of `total` so far.
    func mqttProgress(_ message: MQTTOutgoing, bytes: Int, total: Int)
    /// The broker acknowledged QoS 1 messages (PUBACK).
    func mqttDelivered(_ messages: [MQTTOutgoing])
    /// Messages that are known not to have left, and why.
    func mqttFailed(_ messages: [MQTTOutgoing], reason: String)
    /// The broker granted (or refused, with 0x80) each subscription.
    func mqttSubscribed(_ filters: [String], returnCodes: [UInt8])
    /// A message arrived on a subscription. At QoS 1 it is acknowledged after this returns.
    func mqttReceived(_ message: MQTTPublish)
    /// A message arrived on a subscription: returns whether the owner took it. At QoS 1 only a
    /// message taken is acknowledged; one refused (the owner is stopping) stays with the broker,
    /// which sends it again on the next connection of a kept session. The default passes the
    /// message to ``mqttReceived(_:)`` and takes it.
    func mqttTake(_ message: MQTTPublish) -> Bool
}

/// Empty defaults: an owner implements only the events it needs.
extension MQTTClientDelegate {
    public func mqttConnected(address: String, sessionPresent: Bool) {}
    public func mqttConnectionProblem(_ message: String, retryIn: Double?) {}
    public func mqttWritten(_ messages: [MQTTOutgoing]) {}
    public func mqttProgress(_ message: MQTTOutgoing, bytes: Int, total: Int) {}
    public func mqttDelivered(_ messages: [MQTTOutgoing]) {}
    public func mqttFailed(_ messages: [MQTTOutgoing], reason: String) {}
    public func mqttSubscribed(_ filters: [String], returnCodes: [UInt8]) {}
    public func mqttReceived(_ message: MQTTPublish) {}
    public func mqttTake(_ message: MQTTPublish) -> Bool {
        mqttReceived(message)
        return true
    }
}
