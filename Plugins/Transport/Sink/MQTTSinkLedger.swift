import DAQCore
import Foundation

/// The `mqtt` sink's side of the client: turns the client's message events into the stage's
/// sent / progress / delivered / failed reports, acknowledges spooled messages, and bounds how
/// many messages the sink has handed over and not yet seen settled.
///
/// The bound holds the pipeline back without a wait on the write path: while the queue is
/// full the sink refuses input (``hasRoom``, its ``DeferredWork/acceptsInput``), and a message
/// settling wakes the stage to ask again.
///
/// # Thread safety
/// Every mutable property is guarded by `condition` (one lock): the client's event loop settles
/// messages and signals it. That single lock is what makes the `@unchecked Sendable` safe.
final class MQTTSinkLedger: MQTTClientDelegate, @unchecked Sendable {
    private let condition = NSCondition()
    private var outstanding = 0
    private var fatal: String?
    private var connected = false
    private var attempts = 0
    private var lastProblem: String?
    private var starting: StartCompletion?
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

    /// The stage it reports to, `nil` once detached.
    var stage: StageContext? { condition.withLock { context } }

    /// Throws the reason the client gave up, if it has.
    func check() throws {
        if let fatal = condition.withLock({ fatal }) { throw TransportError(fatal) }
    }

    /// The last connection problem, for the message about what was not delivered.
    var problem: String? { condition.withLock { lastProblem } }

    /// Counts `count` more messages as handed over; never waits: ``hasRoom`` said there was
    /// room for them before the batch was taken.
    /// - Throws: ``TransportError`` when the client has given up.
    func reserve(_ count: Int) throws {
        try condition.withLock {
            if let fatal { throw TransportError(fatal) }
            outstanding += count
        }
    }

    /// Whether the sink takes another batch: the queue is below its size (a batch may take it
    /// past that by its own messages, as one larger than the whole queue always could), or the
    /// client has given up and the next write says so.
    var hasRoom: Bool { condition.withLock { outstanding < capacity || fatal != nil } }

    /// Messages handed over and not yet settled, and whether the client has given up.
    var unsettled: (count: Int, gaveUp: Bool) { condition.withLock { (outstanding, fatal != nil) } }

    /// Completes the sink's start at the first outcome of the first connection attempt, as
    /// the source does; the engine waits for it off the pool.
    func completeStart(_ completion: StartCompletion) {
        condition.withLock { starting = completion }
    }

    /// The start's completion at an outcome, once, with the reason the client gave up if it did.
    private func outcome() -> (StartCompletion, String?)? {
        guard let s = starting else { return nil }
        starting = nil
        return (s, fatal)
    }

    private static func settle(_ start: (StartCompletion, String?)?) {
        guard let (completion, fatal) = start else { return }
        if let fatal { completion.fail(TransportError(fatal)) } else { completion.succeed() }
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
        let stage = condition.withLock { () -> StageContext? in
            outstanding -= count
            condition.broadcast()
            return context
        }
        // Room again, or nothing left to wait for at the end: the stage asks again.
        stage?.wake()
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
        let (ctx, recovered, start) = condition.withLock { () -> (StageContext?, Bool, (StartCompletion, String?)?) in
            connected = true
            attempts = 0
            return (context, lastProblem != nil, outcome())
        }
        Self.settle(start)
        if recovered { ctx?.notice("connected to the MQTT broker at \(address)") }
    }

    func mqttConnectionProblem(_ message: String, retryIn: Double?) {
        let (ctx, first, start) = condition.withLock { () -> (StageContext?, Bool, (StartCompletion, String?)?) in
            let first = attempts == 0
            if retryIn == nil { fatal = message }
            lastProblem = message
            connected = false
            attempts += 1
            condition.broadcast()
            return (context, first, outcome())
        }
        Self.settle(start)
        // Given up: a stage holding back for room learns it at its next write.
        guard retryIn != nil else { return ctx?.wake() ?? () }
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
