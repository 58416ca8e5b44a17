import Foundation
import Synchronization

extension Process {
    /// Waits for this child by its pid and returns its exit status, or the signal that ended it,
    /// as `terminationStatus` has them. Foundation learns of a child's exit from SIGCHLD, which
    /// any thread leaving it unblocked (an event loop's) may take and discard: `waitUntilExit`
    /// alone can then hang with the child a zombie. Call it once per child: Foundation is not told.
    public func reapExitStatus() -> Int32 {
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(processIdentifier, &status, 0) } while reaped == -1 && errno == EINTR
        guard reaped == processIdentifier else {
            // Foundation reaped it first, so it knows how it ended.
            waitUntilExit()
            return terminationStatus
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// ``reapExitStatus()``, waiting at most `seconds`: a child still running then is killed
    /// (SIGKILL) and reaped, and the answer is nil. A test that waits for a child it told to
    /// stop then fails, rather than hangs, when the child missed what it was told.
    public func reapExitStatus(within seconds: Double) -> Int32? {
        let status = Mutex<Int32?>(nil)
        let reaped = DispatchSemaphore(value: 0)
        let reaper = Thread { [self] in
            let code = reapExitStatus()
            status.withLock { $0 = code }
            reaped.signal()
        }
        reaper.start()
        if reaped.wait(timeout: .now() + seconds) == .success { return status.withLock { $0 } }
        kill(processIdentifier, SIGKILL)
        reaped.wait()
        return nil
    }
}
