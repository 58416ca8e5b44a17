import Dispatch
import Foundation

/// Signals taken through `DispatchSource`s on one private serial queue, so no handler runs in
/// an async-signal context; ``restore()`` gives the signals their default actions back.
final class SignalSources: Sendable {
    /// The queue every handler runs on.
    let queue: DispatchQueue
    private let signals: [Int32]
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []

    init(_ signals: [Int32], label: String, handler: @escaping @Sendable (Int32) -> Void) {
        queue = DispatchQueue(label: label)
        self.signals = signals
        for sig in signals {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { handler(sig) }
            source.activate()
            sources.append(source)
        }
    }

    func restore() {
        queue.sync {
            for s in sources { s.cancel() }
            sources = []
        }
        for sig in signals { signal(sig, SIG_DFL) }
    }
}
