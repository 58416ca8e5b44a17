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
/// Every mutable property is guarded by `lock`: the client's event loop settles messages while
/// the stage's queue hands them over. That single lock is what makes the `@unchecked Sendable`
/// safe; nothing ever waits on it for longer than a few assignments.
final class MQTTSinkLedger: MQTTClientDelegate, @unchecked Sendable {
    private let lock = NSLock()
    private var outstanding = 0
    /// What the sink's finish waits for: every message settled, or the client given up.
    private var onSettled: (@Sendable () -> Void)?
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
        lock.withLock { self.context = context }
    }

    /// Forgets the stage: a callback the client makes after the sink finished (a connection
    /// closing late) must not reach a stage that is gone.
    func detach() {
        lock.withLock { context = nil }
    }

    /// The stage it reports to, `nil` once detached.
    var stage: StageContext? { lock.withLock { context } }

    /// Throws the reason the client gave up, if it has.
    func check() throws {
        if let fatal = lock.withLock({ fatal }) { throw TransportError(fatal) }
    }

    /// The last connection problem, for the message about what was not delivered.
    var problem: String? { lock.withLock { lastProblem } }

    /// Counts `count` more messages as handed over; never waits: ``hasRoom`` said there was
    /// room for them before the batch was taken.
    /// - Throws: ``TransportError`` when the client has given up.
    func reserve(_ count: Int) throws {
        try lock.withLock {
            if let fatal { throw TransportError(fatal) }
            outstanding += count
        }
    }

    /// Whether the sink takes another batch: the queue is below its size (a batch may take it
    /// past that by its own messages, as one larger than the whole queue always could), or the
    /// client has given up and the next write says so.
    var hasRoom: Bool { lock.withLock { outstanding < capacity || fatal != nil } }

    /// Messages handed over and not yet settled, and whether the client has given up.
    var unsettled: (count: Int, gaveUp: Bool) { lock.withLock { (outstanding, fatal != nil) } }

    /// Completes the sink's start at the first outcome of the first connection attempt, as
    /// the source does; the engine waits for it off the pool.
    func completeStart(_ completion: StartCompletion) {
        lock.withLock { starting = completion }
    }

    /// The start's completion at an outcome, once, with the reason the client gave up if it did.
    private func outcome() -> (StartCompletion, String?)? {
        guard let s = starting else { return nil }
        starting = nil
        return (s, fatal)
    }

    /// Calls `then` (on any thread) once every message handed over has settled or the client
    /// has given up: at once if that is so now. One caller, the sink's finish.
    func whenSettled(_ then: @escaping @Sendable () -> Void) {
        let now = lock.withLock { () -> Bool in
            if outstanding <= 0 || fatal != nil { return true }
            onSettled = then
            return false
        }
        if now { then() }
    }

    /// The finish's callback, once, when there is nothing left to wait for. Called under `lock`.
    private func takeSettled() -> (@Sendable () -> Void)? {
        guard outstanding <= 0 || fatal != nil, let then = onSettled else { return nil }
        onSettled = nil
        return then
    }

    private func settle(_ count: Int) {
        let (stage, then) = lock.withLock { () -> (StageContext?, (@Sendable () -> Void)?) in
            outstanding -= count
            return (context, takeSettled())
        }
        // Room again, or nothing left to wait for at the end: the stage asks again.
        stage?.wake()
        then?()
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
        let (ctx, recovered, start) = lock.withLock { () -> (StageContext?, Bool, (StartCompletion, String?)?) in
            connected = true
            attempts = 0
            return (context, lastProblem != nil, outcome())
        }
        StartCompletion.settle(start)
        if recovered { ctx?.notice("connected to the MQTT broker at \(address)") }
    }

    func mqttConnectionProblem(_ message: String, retryIn: Double?) {
        let (ctx, first, start, then) = lock.withLock {
            () -> (StageContext?, Bool, (StartCompletion, String?)?, (@Sendable () -> Void)?) in
            let first = attempts == 0
            if retryIn == nil { fatal = message }
            lastProblem = message
            connected = false
            attempts += 1
            return (context, first, outcome(), takeSettled())
        }
        StartCompletion.settle(start)
        then?()
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
