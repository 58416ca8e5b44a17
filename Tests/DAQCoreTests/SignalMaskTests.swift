import Foundation
import Synchronization
import Testing

@testable import DAQCore

/// The threads DAQCore makes leave asynchronous signals to the threads that wait for them: one
/// of ours taking a SIGCHLD made `Process.waitUntilExit` hang, and could lose `daq run` a SIGTERM.
@Suite("threads of DAQCore's own and signals", .timeLimit(.minutes(20)))
struct SignalMaskTests {
    static func blocked(_ signal: Int32) -> Bool {
        var current = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &current)
        return sigismember(&current, signal) == 1
    }

    @Test func theBlockingPoolsThreadsTakeNoSignals() {
        let seen = Mutex<[Bool]?>(nil)
        let done = DispatchSemaphore(value: 0)
        // Asked from a thread that takes them (a program's main thread does), as a new thread
        // would inherit that mask.
        var open = sigset_t()
        var old = sigset_t()
        sigemptyset(&open)
        for signal in [SIGCHLD, SIGTERM, SIGINT, SIGHUP] { sigaddset(&open, signal) }
        pthread_sigmask(SIG_UNBLOCK, &open, &old)
        BlockingPool(limit: 1).submit {
            seen.withLock { $0 = [SIGCHLD, SIGTERM, SIGINT, SIGHUP].map(Self.blocked) }
            done.signal()
        }
        pthread_sigmask(SIG_SETMASK, &old, nil)
        done.wait()
        #expect(seen.withLock { $0 } == [true, true, true, true])
    }

    @Test func theCallersMaskIsLeftAsItWas() {
        let before = Self.blocked(SIGCHLD)
        SignalMask.startingThread {}
        #expect(Self.blocked(SIGCHLD) == before)
    }
}
