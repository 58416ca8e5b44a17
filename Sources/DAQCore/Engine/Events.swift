/// Something that happened in a run. Observers receive these; `--events jsonl` prints them.
///
/// # Matching on events
/// Kinds are added as DAQKit grows. A `switch` over events ends with `@unknown default`, so a
/// new kind is a compiler warning in your code, not an error, and your program keeps building:
///
/// ```swift
/// switch event {
/// case .failed(let component, let error): report(component, error.code, error.location)
/// case .dropped(let component, let samples): count(component, samples)
/// case .state, .timeout, .stepChanged, .sent, .progress, .delivered, .sinkFailed,
///      .messages, .backpressure, .notice, .warning:
///     break
/// @unknown default: break
/// }
/// ```
///
/// Or match the few kinds you need with `if case` and ignore the rest, or implement the
/// ``PipelineObserver`` methods you need: each kind has one, with an empty default, and a new
/// kind comes with a new method. An enum rather than a struct with a kind, because a pattern
/// binds each kind's own payload with its type (`.sent(let sink, let samples, let bytes)`);
/// adding associated values to a kind would break those patterns, so new data arrives as a new
/// kind (as ``messages(sink:status:ids:)`` did).
public enum PipelineEvent: Sendable, Equatable {
    /// The pipeline (`component == nil`) or a stage changed state.
    case state(component: String?, from: LifecycleState, to: LifecycleState)
    /// A stage (`component`) or the pipeline (`nil`: its record could not be written) failed;
    /// `error` says how, with a code and, when known, the file and line or byte.
    case failed(component: String?, error: DAQError)
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
    /// Its own kind, published next to those, so their patterns stay as they are.
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

/// An observer made of one closure that sees every event.
public final class ClosureObserver: PipelineObserver {
    private let body: @Sendable (PipelineEvent) -> Void

    /// Creates an observer calling `body` for every event.
    public init(_ body: @escaping @Sendable (PipelineEvent) -> Void) {
        self.body = body
    }

    public func handle(_ event: PipelineEvent) { body(event) }
}
