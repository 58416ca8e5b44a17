import DAQCore
import Foundation

extension Process {
    /// Starts the process as a shell starts a command: with no signal blocked.
    ///
    /// `run()` passes the calling thread's signal mask on to the child, and a test runs on one of
    /// libdispatch's threads, which block every asynchronous signal. A child started so blocks
    /// SIGINT and SIGTERM from its first instruction, and a blocked signal reaches the
    /// `signalfd` that libdispatch reads even where the program had set it to be ignored: the
    /// test then passes on a program that a shell's Ctrl-C never stops.
    public func runUnblocked() throws {
        var none = sigset_t()
        sigemptyset(&none)
        try SignalMask.with(SIG_SETMASK, none) { try run() }
    }
}
