import Dispatch
import Foundation
import Synchronization

/// Signals taken through `DispatchSource`s on one private serial queue, so no handler runs in
/// an async-signal context; ``restore()`` gives the signals their default actions back.
///
/// On Linux libdispatch reads a signal from a `signalfd`, which sees it only while it is pending;
/// so that it is, libdispatch installs a handler of its own (which blocks the signal in the
/// thread it landed on and raises it again for the thread reading it), but only when the
/// process's first source for that signal registers. A signal left `SIG_IGN` instead is
/// discarded by the kernel unless the main thread happens to block it: `daq run` lost every
/// SIGINT from a shell once ``restore()`` had run before its second set of sources. So the
/// handler libdispatch installed is kept here, and put back for any later set.
final class SignalSources: Sendable {
    /// The queue every handler runs on.
    let queue: DispatchQueue
    private let signals: [Int32]
    nonisolated(unsafe) private var sources: [any DispatchSourceSignal] = []
    /// libdispatch's handler for each signal a source has registered for in this process.
    private static let dispatchActions = Mutex<[Int32: sigaction]>([:])

    init(_ signals: [Int32], label: String, handler: @escaping @Sendable (Int32) -> Void) {
        queue = DispatchQueue(label: label)
        self.signals = signals
        let installed = Self.dispatchActions.withLock { $0 }
        let registered = DispatchGroup()
        for sig in signals {
            if var action = installed[sig] {
                sigaction(sig, &action, nil)
            } else {
                // Until the source registers and libdispatch's handler replaces this, a signal
                // is ignored rather than fatal.
                signal(sig, SIG_IGN)
            }
            let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
            source.setEventHandler { handler(sig) }
            registered.enter()
            source.setRegistrationHandler { registered.leave() }
            source.activate()
            sources.append(source)
        }
        // Registration happens on libdispatch's manager thread: once it has, a signal sent is
        // surely seen, and the handler libdispatch installed can be read. A source that cannot
        // register (no descriptor left for its signalfd) never says so: that is not waited for.
        guard registered.wait(timeout: .now() + 10) == .success else { return }
        Self.dispatchActions.withLock { actions in
            for sig in signals where actions[sig] == nil { actions[sig] = Self.handlerAction(of: sig) }
        }
    }

    func restore() {
        queue.sync {
            for s in sources { s.cancel() }
            sources = []
        }
        for sig in signals { signal(sig, SIG_DFL) }
    }

    /// The action `signal` has now when it runs a function; nil for `SIG_DFL` (0) or `SIG_IGN` (1).
    static func handlerAction(of signal: Int32) -> sigaction? {
        var action = sigaction()
        sigaction(signal, nil, &action)
        return unsafeBitCast(action.__sigaction_handler.sa_handler, to: Int.self) > 1 ? action : nil
    }
}
