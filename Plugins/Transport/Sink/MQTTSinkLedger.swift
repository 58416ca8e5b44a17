import DAQCore
import Foundation

/// The `mqtt` sink's side of the client: turns the client's message events into the stage's
/// sent / progress / delivered / failed reports, acknowledges spooled messages, and bounds how
/// many messages the sink has handed over and not yet seen settled.
///
/// # Thread safety
/// Every mutable property is guarded by `condition` (one lock): the stage queue waits on it
/// for room, the client's event loop settles messages and signals it. That single lock is
/// what makes the `@unchecked Sendable` safe.
final class MQTTSinkLedger: MQTTClientDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var outstanding = 0
    private var fatal: String?
    private var connected = false
    private var attempts = 0
    private var lastProblem: String?
    private var outcomes = 0
    private var context: StageContext?
    let capacity: Int
    let spool: MessageSpool?

    init(capacity: Int, spool: MessageSpool?) {
        self.capacity = capacity
        self.spool = spool
    }

    func attach(_ context: StageContext) {
        condition.withLock { self.context = context }
    }

    /// Forgets the stage: a callback the client makes after the sink finished (a connection
    /// closing late) must not reach a stage that is gone.
    func detach() {
        condition.withLock { context = nil }
    }

    private var stage: StageContext? { condition.withLock { context } }

    /// Throws the reason the client gave up, if it has.
    func check() throws {
        if let fatal = condition.withLock({ fatal }) { throw TransportError(fatal) }
    }

    /// The last connection problem, for the message about what was not delivered.
    var problem: String? { condition.withLock { lastProblem } }

    /// Waits until `count` more messages fit in the queue (or the queue is empty, for a batch
    /// larger than the whole queue).
    /// - Throws: ``TransportError`` when the client has given up.
    func reserve(_ count: Int) throws {
        condition.lock()
        defer { condition.unlock() }
        while fatal == nil && outstanding > 0 && outstanding + count > capacity { condition.wait() }
        if let fatal { throw TransportError(fatal) }
        outstanding += count
    }

    /// Waits until the first connection attempt has an outcome, at most `seconds`.
    func waitForFirstOutcome(seconds: Double) {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while outcomes == 0 && condition.wait(until: deadline) {}
    }

    /// Waits until every message handed over has settled, the client gave up, or `seconds` pass.
    /// - Returns: whether the queue is empty.
    func drain(seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        condition.lock()
        defer { condition.unlock() }
        while outstanding > 0 && fatal == nil && condition.wait(until: deadline) {}
        return outstanding == 0
    }

    private func settle(_ count: Int) {
        condition.withLock {
            outstanding -= count
            condition.broadcast()
        }
    }

    private func delivered(_ messages: [MQTTOutgoing]) {
        guard !messages.isEmpty else { return }
        var samples = 0
        var bytes = 0
        for m in messages {
            samples += m.samples
            bytes += m.payload.readableBytes
        }
        let stage = self.stage
        if let spool {
            spool.acknowledge(messages.map(\.token))
            stage?.spooled(samples: spool.spooledSamples)
        }
        stage?.delivered(samples: samples, bytes: bytes)
        stage?.messages(.delivered, ids: messages.compactMap(\.messageID))
        settle(messages.count)
    }

    // MARK: MQTTClientDelegate

    func mqttConnected(address: String, sessionPresent: Bool) {
        let (ctx, recovered) = condition.withLock { () -> (StageContext?, Bool) in
            defer {
                connected = true
                attempts = 0
                outcomes += 1
                condition.broadcast()
            }
            return (context, lastProblem != nil)
        }
        if recovered { ctx?.notice("connected to the MQTT broker at \(address)") }
    }

    func mqttConnectionProblem(_ message: String, retryIn: Double?) {
        let (ctx, first) = condition.withLock { () -> (StageContext?, Bool) in
            defer {
                if retryIn == nil { fatal = message }
                lastProblem = message
                connected = false
                attempts += 1
                outcomes += 1
                condition.broadcast()
            }
            return (context, attempts == 0)
        }
        guard retryIn != nil else { return }
        // The loss is a warning; each attempt after it is news, not another error.
        if first { ctx?.warn(message) } else { ctx?.notice(message) }
    }

    func mqttWritten(_ messages: [MQTTOutgoing]) {
        // At QoS 0 there is no acknowledgement: written to the connection is as far as it goes.
        var done: [MQTTOutgoing] = []
        for m in messages where m.qos == .atMostOnce { done.append(m) }
        delivered(done)
    }

    func mqttProgress(_ message: MQTTOutgoing, bytes: Int, total: Int) {
        stage?.progress(bytes: bytes, total: total)
    }

    func mqttDelivered(_ messages: [MQTTOutgoing]) {
        delivered(messages)
    }

    func mqttFailed(_ messages: [MQTTOutgoing], reason: String) {
        let samples = messages.reduce(0) { $0 + $1.samples }
        // Such a message can never be sent: keeping it in the spool would fail every run.
        let stage = self.stage
        if let spool {
            spool.acknowledge(messages.map(\.token))
            stage?.spooled(samples: spool.spooledSamples)
        }
        // The payloads hold the samples as JSON: under dead_letter each becomes one dead letter.
        stage?.failed(samples: samples, message: reason, raw: messages.map(\.text))
        stage?.messages(.failed, ids: messages.compactMap(\.messageID))
        settle(messages.count)
    }
}

extension MQTTOutgoing {
    /// The payload as text, as a dead letter keeps it: the sink's payloads are JSON.
    var text: String { String(decoding: payload.readableBytesView, as: UTF8.self) }

    /// The `_msg` id the payload opens with (`{"_msg":"…"` or `[{"_msg":"…"`): read from the
    /// payload, so a message an earlier run spooled reports the id it was sent with.
    var messageID: String? {
        let view = payload.readableBytesView
        let opening = Array(#"{"_msg":""#.utf8)
        var start = view.startIndex
        if view.first == UInt8(ascii: "[") { start += 1 }
        guard view.endIndex - start > opening.count, view[start..<(start + opening.count)].elementsEqual(opening) else {
            return nil
        }
        let from = start + opening.count
        guard let end = view[from...].firstIndex(of: UInt8(ascii: "\"")) else { return nil }
        return String(decoding: view[from..<end], as: UTF8.self)
    }
}
