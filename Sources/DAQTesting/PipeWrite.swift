import DAQCore
import Foundation

extension FileHandle {
    /// Writes `data` to a pipe or FIFO whose reader may have gone (a child that failed early):
    /// that is an error thrown here, never a signal.
    ///
    /// A write to a pipe with no reader raises SIGPIPE in the writing thread, whose default
    /// action ends the whole test process with every test under way, and libdispatch's threads
    /// leave SIGPIPE unblocked. `write(_:)` would also trap on the EPIPE. So SIGPIPE is blocked
    /// in this thread for the write, and one it raised is taken before the mask is restored.
    public func writeWithoutSIGPIPE(_ data: Data) throws {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        try SignalMask.with(SIG_BLOCK, pipeSignal) {
            defer {
                var pending = sigset_t()
                sigpending(&pending)
                if sigismember(&pending, SIGPIPE) == 1 {
                    var now = timespec()
                    _ = sigtimedwait(&pipeSignal, nil, &now)
                }
            }
            try write(contentsOf: data)
        }
    }
}
