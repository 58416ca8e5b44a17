#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// The threads that only watch a run — the live view's readers, the writer of a `daq tap`
/// client — run at the lowest scheduling priority.
///
/// On a machine the pipeline keeps busy, a watcher that takes a core when the pipeline's next
/// batch is ready delays the run; at the lowest priority it gets the processor only when the
/// pipeline's threads leave it, and a watcher that falls behind loses frames or tapped samples,
/// which both already allow, never the run's own.
///
/// A lowered thread must start nothing that serves the run: a thread it starts inherits nice 19,
/// and so would a worker libdispatch starts for work it queues. The view's threads start only
/// other view threads, and hand their frames to the server's existing event loops.
package enum WatcherPriority {
    /// Gives the calling thread nice 19. Linux keeps the nice value per thread, and `who` 0
    /// names the calling thread, so the rest of the process keeps its own; elsewhere this does
    /// nothing.
    package static func lowerCallingThread() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 19)
        #endif
    }
}
