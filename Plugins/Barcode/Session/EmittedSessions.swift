import DAQCore
import Synchronization

/// The sessions as the pipeline has seen them: followed from the `scan.*` events a source
/// emitted, which may lag what it has read.
///
/// A source reads ahead of the run clock, and the run drops what lies beyond a stop, a
/// `--duration` or `--max-samples`, part of a batch among it; so when the run cuts a source
/// short, only the events that left it say which session is open downstream.
struct EmittedSessions {
    /// Where the last emitted session stands.
    enum State: Equatable {
        /// Every session emitted has its `scan.stop`.
        case closed
        /// `scan.start` left, nothing after it yet.
        case open(id: Int, start: Double)
        /// Its outcome left, its `scan.stop` not yet.
        case ended(id: Int)
    }

    private(set) var state = State.closed

    /// Follows the scan events of a batch the source emitted.
    mutating func see(_ batch: Batch) {
        guard let events = batch.columnIndex("event") else { return }
        let sessions = batch.columnIndex("session")
        for i in 0..<batch.count where batch.kinds[i] == .event {
            guard let event = batch.columns[events][i].stringValue else { continue }
            let id = sessions.flatMap { batch.columns[$0][i].intValue }.map { Int($0) } ?? 0
            switch event {
            case "scan.start": state = .open(id: id, start: batch.uptimes[i])
            case "scan.stop": state = .closed
            default: state = .ended(id: id)
            }
        }
    }
}

/// Watches what a scanner source emits, so that when the run cuts it short it closes the
/// session the pipeline has open — not the one it has read ahead to.
///
/// # Thread safety
/// The state sits behind a `Mutex`: the engine calls the tap on the stage's queue, and the
/// source reads it from the same queue in `cutShort`, but the closure must be `Sendable`.
final class SessionWatch: Sendable {
    private let seen = Mutex<EmittedSessions?>(nil)

    /// Starts following what the stage emits. Outside a pipeline (a harness reading the source
    /// by hand) there is nothing to observe, and everything read counts as emitted.
    func attach(_ context: StageContext) {
        // Observing its own output is the one way a source learns what the run let through:
        // admission and a stop drop read-ahead samples without telling it.
        let found = context.observe(context.name) { [self] batch in
            seen.withLock { s in
                var view = s ?? EmittedSessions()
                view.see(batch)
                s = view
            }
        }
        if found { seen.withLock { $0 = EmittedSessions() } }
    }

    /// What the pipeline has seen, or `nil` when nothing is watched.
    var emitted: EmittedSessions? { seen.withLock { $0 } }
}

extension ScanSessions {
    /// Closes what the pipeline has open at `t`: what `watch` saw emitted, or, unwatched,
    /// the session this machine has open.
    mutating func cutShort(watched watch: SessionWatch, at t: Double, into batch: inout Batch) {
        var seen = EmittedSessions()
        if let emitted = watch.emitted {
            seen = emitted
        } else if let open {
            seen.assumeOpen(id: open.id, start: open.start)
        }
        cutShort(seen: seen, at: t, into: &batch)
    }
}

extension EmittedSessions {
    /// For a source nobody watches: everything it read counts as emitted.
    fileprivate mutating func assumeOpen(id: Int, start: Double) {
        state = .open(id: id, start: start)
    }
}
