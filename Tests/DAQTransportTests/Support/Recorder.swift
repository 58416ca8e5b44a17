import DAQCore
import DAQTransport
import Foundation

/// Keeps what a client or a run reports, and lets a test wait — with a deadline, woken by
/// each new report, never by a timer — until what it expects has happened.
final class Recorder<Event: Sendable>: @unchecked Sendable {
    // @unchecked: `events` is guarded by `condition`, the one lock.
    private let condition = NSCondition()
    private var events: [Event] = []

    func append(_ e: Event) {
        condition.withLock {
            events.append(e)
            condition.broadcast()
        }
    }

    var all: [Event] { condition.withLock { events } }

    /// Waits until `done(events)` holds or `seconds` pass; returns whether it holds.
    @discardableResult
    func wait(seconds: Double = 20, until done: ([Event]) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while !done(events) {
            if !condition.wait(until: deadline) { return done(events) }
        }
        return true
    }
}

/// What an ``MQTTClient`` told its delegate.
enum ClientEvent: Sendable {
    case connected
    case problem(String, retry: Bool)
    case written(Int)
    case progress(bytes: Int, total: Int)
    case delivered([UInt64])
    case failed(Int, String)
    case subscribed([UInt8])
    case received(MQTTPublish)
}

/// A client delegate that records every event.
final class RecordingDelegate: MQTTClientDelegate {
    let recorder = Recorder<ClientEvent>()

    func mqttConnected(address: String, sessionPresent: Bool) { recorder.append(.connected) }
    func mqttConnectionProblem(_ message: String, retryIn: Double?) {
        recorder.append(.problem(message, retry: retryIn != nil))
    }
    func mqttWritten(_ messages: [MQTTOutgoing]) { recorder.append(.written(messages.count)) }
    func mqttProgress(_ message: MQTTOutgoing, bytes: Int, total: Int) {
        recorder.append(.progress(bytes: bytes, total: total))
    }
    func mqttDelivered(_ messages: [MQTTOutgoing]) { recorder.append(.delivered(messages.map(\.token))) }
    func mqttFailed(_ messages: [MQTTOutgoing], reason: String) { recorder.append(.failed(messages.count, reason)) }
    func mqttSubscribed(_ filters: [String], returnCodes: [UInt8]) { recorder.append(.subscribed(returnCodes)) }
    func mqttReceived(_ message: MQTTPublish) { recorder.append(.received(message)) }

    var problems: [String] {
        recorder.all.compactMap { if case .problem(let m, _) = $0 { m } else { nil } }
    }
}
