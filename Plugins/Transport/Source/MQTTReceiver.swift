import DAQCore
import Foundation

/// The `mqtt` source's side of the client: decodes each message received into samples, drops
/// messages already seen (by `_msg` id), holds the samples until the stage reads them, and
/// stops reading from the broker while too many wait.
///
/// # Thread safety
/// Every mutable property is guarded by `condition` (one lock, which nothing waits on): the
/// client's event loop adds samples, the stage queue takes them. That single lock is what makes the `@unchecked
/// Sendable` safe.
final class MQTTReceiver: MQTTClientDelegate, @unchecked Sendable {
    private let condition = NSLock()
    private var starting: StartCompletion?
    private var pending = Batch()
    private var filter: DuplicateFilter
    private var fatal: String?
    private var lastProblem: String?
    private var paused = false
    private var received = 0
    private var duplicates = 0
    private var context: StageContext?
    weak var client: MQTTClient?
    let limit: Int
    let onBadPayload: BadPayload
    /// Whether samples gain `topic`, `pipeline` and `host`.
    let origin: Bool
    /// The source's `count`: once that many samples are taken, a message is left unacknowledged
    /// (the broker keeps it for the session's next run) rather than taken and dropped.
    let count: Int?

    /// What to do with a message whose payload is not samples.
    enum BadPayload: String, ConfigEnum, Sendable {
        case skip, fail
    }

    init(limit: Int, dedup: Int, onBadPayload: BadPayload, origin: Bool = true, count: Int? = nil) {
        self.limit = limit
        self.origin = origin
        self.count = count
        self.filter = DuplicateFilter(capacity: dedup)
        self.onBadPayload = onBadPayload
    }

    func attach(_ context: StageContext) {
        condition.withLock { self.context = context }
    }

    /// Forgets the stage: a message or a closing connection after the source stopped must not
    /// reach a stage that is gone, and a message arriving after is left unacknowledged.
    func detach() {
        condition.withLock { context = nil }
    }

    /// Stops taking messages and hands over the samples taken, each of them acknowledged: the
    /// broker will not send those again, so they must reach the pipeline now. When the run's end
    /// is a stop or `--duration`, every one goes: what lay at or past that end was refused as it
    /// arrived. A `--max-samples` cut leaves no end to refuse by: a message past the run's budget
    /// was refused as it arrived, and what is left from `uptime` on (the tail of the message that
    /// reached the budget, or what came while another source used it up) is dropped with it.
    func close(before uptime: Double, into batch: inout Batch) {
        condition.withLock {
            let endKnown = context?.endUptime != nil
            var due = endKnown ? pending.count : pending.uptimes.firstIndex { $0 >= uptime } ?? pending.count
            // Never past `--max-samples`: what the stage took already counts against it.
            if let budget = context?.sampleBudget { due = min(due, max(0, budget - (received - pending.count))) }
            context = nil
            batch.append(contentsOf: pending.slice(0..<due))
            pending = Batch()
        }
    }

    /// Takes up to `limit` waiting samples.
    /// - Throws: ``TransportError`` when the client gave up or a payload failed with `on_bad_payload: fail`.
    func take(into batch: inout Batch, limit: Int) throws {
        let resume = try condition.withLock { () -> Bool in
            if let fatal { throw TransportError(fatal) }
            if pending.count <= limit {
                batch.append(contentsOf: pending)
                pending = Batch()
            } else {
                batch.append(contentsOf: pending.slice(0..<limit))
                pending = pending.slice(limit..<pending.count)
            }
            if paused && pending.count < self.limit / 2 {
                paused = false
                return true
            }
            return false
        }
        if resume { client?.setReading(true) }
    }

    /// Whether the source's `count` is reached and every sample taken has been handed over: the
    /// broker will not send those again, so the source finishes only then.
    var isSpent: Bool {
        condition.withLock { count.map { received >= $0 } == true && pending.isEmpty }
    }

    /// Messages dropped because their id was seen before.
    var duplicateCount: Int { condition.withLock { duplicates } }

    /// Completes the source's start at the first outcome of the first connection attempt —
    /// subscribed, or a problem — so that a source that has started misses nothing published
    /// after; the engine waits for that without a thread of the pool (see
    /// ``StageContext/completeStartLater(waitingAtMost:)``).
    func completeStart(_ completion: StartCompletion) {
        condition.withLock { starting = completion }
    }

    /// The start's completion at an outcome, once: `fatal` fails it.
    private func outcome() -> (StartCompletion, String?)? {
        guard let s = starting else { return nil }
        starting = nil
        return (s, fatal)
    }

    /// `topic`, `pipeline` and `host`, each unless the sample has such a field of its own.
    private static func addOrigin(to s: inout Sample, topic: Value, _ d: SamplePayload.Decoded) {
        if s["topic"] == nil { s["topic"] = topic }
        if let p = d.pipeline, s["pipeline"] == nil { s["pipeline"] = .string(p) }
        if let h = d.host, s["host"] == nil { s["host"] = .string(h) }
    }

    // MARK: MQTTClientDelegate

    func mqttConnected(address: String, sessionPresent: Bool) {
        // Connected is not ready yet: the first outcome the stage waits for is the SUBACK.
        let (ctx, recovered) = condition.withLock { () -> (StageContext?, Bool) in
            defer { lastProblem = nil }
            return (context, lastProblem != nil)
        }
        if recovered { ctx?.notice("connected to the MQTT broker at \(address)") }
    }

    func mqttConnectionProblem(_ message: String, retryIn: Double?) {
        let (ctx, first, start) = condition.withLock { () -> (StageContext?, Bool, (StartCompletion, String?)?) in
            let first = lastProblem == nil
            if retryIn == nil { fatal = message }
            lastProblem = message
            return (context, first, outcome())
        }
        StartCompletion.settle(start)
        if retryIn == nil { ctx?.wake() } else if first { ctx?.warn(message) } else { ctx?.notice(message) }
    }

    func mqttSubscribed(_ filters: [String], returnCodes: [UInt8]) {
        let refused = zip(filters, returnCodes).filter { $0.1 == 0x80 }.map(\.0)
        let (ctx, start) = condition.withLock { () -> (StageContext?, (StartCompletion, String?)?) in
            if !refused.isEmpty {
                fatal = "the MQTT broker refused the subscription to \(refused.joined(separator: ", "))"
            }
            return (context, outcome())
        }
        StartCompletion.settle(start)
        if !refused.isEmpty { ctx?.wake() }
    }

    func mqttTake(_ message: MQTTPublish) -> Bool {
        let decoded: [SamplePayload.Decoded]
        do {
            decoded = try SamplePayload.decode(message.payload.readableBytesView)
        } catch {
            let text = "message on '\(message.topic)' is not samples: \(error)"
            let ctx = condition.withLock { () -> StageContext? in
                if onBadPayload == .fail { fatal = text }
                return context
            }
            if onBadPayload == .fail {
                ctx?.wake()
            } else if let ctx, ctx.errorPolicy == .deadLetter {
                // Received on an event-loop thread: the stage's queue owns its outputs.
                let raw = String(decoding: message.payload.readableBytesView, as: UTF8.self)
                ctx.perform { ctx.reject(raw: raw, uptime: ctx.clock.now(), reason: text) }
            } else {
                ctx?.warn("skipped a \(text)")
            }
            return true  // acknowledged: sent again, it would be just as bad
        }
        let (taken, ctx, pause) = condition.withLock { () -> (Bool, StageContext?, Bool) in
            // No stage to take it (stopping, or stopped): the broker keeps it for the next run.
            guard let context else { return (false, nil, false) }
            // A live source stamps arrival on its own run clock; the sender's uptime belongs to its run.
            let clock = context.clock
            let uptime = clock.mode == .virtual ? clock.elapsedWallSeconds() : clock.now()
            // Past the run's end it would be dropped once acknowledged: the broker keeps it instead.
            // So it would past the source's count, once the samples taken reach it. Refused before
            // its id is remembered, so that sent again on a reconnect it is not taken for a copy.
            if let end = context.endUptime, uptime >= end { return (false, nil, false) }
            if let count, received >= count { return (false, nil, false) }
            // So it would past the run's `--max-samples`, once this source took what the others left.
            if let budget = context.sampleBudget, received >= budget { return (false, nil, false) }
            if let id = decoded.first?.messageID, !filter.admit(id) {
                duplicates += 1
                return (true, nil, false)
            }
            let topic = Value.string(message.topic)
            for d in decoded {
                var s = d.sample
                s.uptime = uptime
                if origin { Self.addOrigin(to: &s, topic: topic, d) }
                pending.append(s)
            }
            received += decoded.count
            if !paused && pending.count >= limit {
                paused = true
                return (true, context, true)
            }
            return (true, context, false)
        }
        if pause { client?.setReading(false) }
        ctx?.wake()
        return taken
    }
}
