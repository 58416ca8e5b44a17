/// Something that happened in a run. Observers receive these; `--events jsonl` prints them.
public enum PipelineEvent: Sendable, Equatable {
    /// The pipeline (`component == nil`) or a stage changed state.
    case state(component: String?, from: LifecycleState, to: LifecycleState)
    /// A stage or the pipeline failed.
    case failed(component: String?, message: String)
    /// A stage gave up waiting (a scan session, a device).
    case timeout(component: String, message: String)
    /// The run's step path changed at run-clock `uptime`.
    case stepChanged(path: String, uptime: Double)
    /// A sink wrote a batch to its output stream.
    case sent(sink: String, samples: Int, bytes: Int)
    /// A sink has written `bytes` of a large message of `total` bytes to its output stream.
    case progress(sink: String, bytes: Int, total: Int)
    /// A sink's destination acknowledged samples (flushed, fsync'd, HTTP 2xx, broker ack).
    case delivered(sink: String, samples: Int, bytes: Int)
    /// A sink could not deliver samples.
    case sinkFailed(sink: String, samples: Int, message: String)
    /// A sink that sends messages with ids of their own (the `mqtt` sink, whose ids are the
    /// payloads' `_msg`) names the messages a `sent`, `delivered` or `sinkFailed` event concerns.
    case messages(sink: String, status: MessageStatus, ids: [String])
    /// A buffer dropped samples under a `drop_*` policy.
    case dropped(component: String, samples: Int)
    /// A source found a reader's `block` buffer full and waits: backpressure has reached it.
    case backpressure(component: String)
    /// A stage tells what it found out and the user should know (a detected unit, a preamble).
    case notice(component: String, message: String)
    /// A stage reported a problem it recovered from (a bad row skipped).
    case warning(component: String, message: String)
}

/// What became of a messaging sink's messages.
public enum MessageStatus: String, Sendable, Equatable {
    /// Handed to the transport.
    case sent
    /// Acknowledged by the destination (a broker's PUBACK).
    case delivered
    /// Given up; the matching `sinkFailed` event says why.
    case failed
}

/// Receives run events. Every method has an empty default, so a type implements only what it
/// needs; ``handle(_:)`` routes each event to its method.
///
/// Callbacks may arrive on any queue and must not block: the engine calls them inline.
public protocol PipelineObserver: AnyObject, Sendable {
    func handle(_ event: PipelineEvent)
    func started(_ component: String?)
    func stopped(_ component: String?)
    func paused(_ component: String?)
    func resumed(_ component: String?)
    func failed(_ component: String?, message: String)
    func timeout(_ component: String, message: String)
    func cancelled(_ component: String?)
    func stepChanged(path: String, uptime: Double)
    func sent(sink: String, samples: Int, bytes: Int)
    func progress(sink: String, bytes: Int, total: Int)
    func delivered(sink: String, samples: Int, bytes: Int)
    func sinkFailed(sink: String, samples: Int, message: String)
    func messages(sink: String, status: MessageStatus, ids: [String])
}

extension PipelineObserver {
    public func handle(_ event: PipelineEvent) {
        switch event {
        case .state(let c, .paused, .running): resumed(c)
        case .state(let c, _, .running): started(c)
        case .state(let c, _, .finished): stopped(c)
        case .state(let c, _, .paused): paused(c)
        case .state(let c, _, .cancelled): cancelled(c)
        case .state: break
        case .failed(let c, let m): failed(c, message: m)
        case .timeout(let c, let m): timeout(c, message: m)
        case .stepChanged(let p, let u): stepChanged(path: p, uptime: u)
        case .sent(let s, let n, let b): sent(sink: s, samples: n, bytes: b)
        case .progress(let s, let b, let t): progress(sink: s, bytes: b, total: t)
        case .delivered(let s, let n, let b): delivered(sink: s, samples: n, bytes: b)
        case .sinkFailed(let s, let n, let m): sinkFailed(sink: s, samples: n, message: m)
        case .messages(let s, let status, let ids): messages(sink: s, status: status, ids: ids)
        case .dropped, .warning, .backpressure, .notice: break
        }
    }
    public func started(_ component: String?) {}
    public func stopped(_ component: String?) {}
    public func paused(_ component: String?) {}
    public func resumed(_ component: String?) {}
    public func failed(_ component: String?, message: String) {}
    public func timeout(_ component: String, message: String) {}
    public func cancelled(_ component: String?) {}
    public func stepChanged(path: String, uptime: Double) {}
    public func sent(sink: String, samples: Int, bytes: Int) {}
    public func progress(sink: String, bytes: Int, total: Int) {}
    public func delivered(sink: String, samples: Int, bytes: Int) {}
    public func sinkFailed(sink: String, samples: Int, message: String) {}
    public func messages(sink: String, status: MessageStatus, ids: [String]) {}
}

/// An observer made of one closure that sees every event.
public final class ClosureObserver: PipelineObserver {
    private let body: @Sendable (PipelineEvent) -> Void

    /// Creates an observer calling `body` for every event.
    public init(_ body: @escaping @Sendable (PipelineEvent) -> Void) {
        self.body = body
    }

    public func handle(_ event: PipelineEvent) { body(event) }
}
