#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The threads DAQCore makes take no asynchronous signals, as libdispatch's own do not.
///
/// A process-directed signal goes to any one thread that does not block it. Signals that
/// libdispatch or Foundation watch (SIGCHLD for `Process`, SIGTERM and SIGINT for `daq run`'s
/// trap) are waited for through a descriptor that only sees them while every thread blocks them;
/// a thread of ours that left them open would take and discard one now and then, so a child's
/// exit went unnoticed (`Process.waitUntilExit` hung) or a SIGTERM was lost.
package enum SignalMask {
    /// Runs `body`, which starts a thread, with every signal blocked, so the new thread starts
    /// (and stays) with all of them blocked; the caller's mask is restored after.
    package static func startingThread(_ body: () -> Void) {
        var all = sigset_t()
        sigfillset(&all)
        with(SIG_BLOCK, all, body)
    }

    /// Runs `body` with this thread's mask changed as `pthread_sigmask(how, signals)` changes
    /// it, and restores the caller's mask after, however `body` ends.
    package static func with<T>(_ how: Int32, _ signals: sigset_t, _ body: () throws -> T) rethrows -> T {
        var signals = signals
        var old = sigset_t()
        pthread_sigmask(how, &signals, &old)
        defer { pthread_sigmask(SIG_SETMASK, &old, nil) }
        return try body()
    }
}
