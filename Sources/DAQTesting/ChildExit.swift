import DAQCore
import Foundation
import Synchronization

extension Process {
    /// Waits for this child by its pid and returns its exit status, or the signal that ended it,
    /// as `terminationStatus` has them. Foundation learns of a child's exit from SIGCHLD, which
    /// any thread leaving it unblocked (an event loop's) may take and discard: `waitUntilExit`
    /// alone can then hang with the child a zombie. Call it once per child: Foundation is not told.
    /// - Returns: -1 in the one case no status is known: Foundation reaped the child first and
    ///   had not noted its end 10 s later.
    public func reapExitStatus() -> Int32 {
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(processIdentifier, &status, 0) } while reaped == -1 && errno == EINTR
        guard reaped == processIdentifier else {
            // Foundation reaped it first, so it learns how it ended: polled, with a deadline,
            // where `waitUntilExit` would wait without one.
            let deadline = Date(timeIntervalSinceNow: 10)
            while isRunning && Date() < deadline { usleep(1000) }
            return isRunning ? -1 : terminationStatus
        }
        let signal = status & 0x7f
        return signal == 0 ? (status >> 8) & 0xff : signal
    }

    /// ``reapExitStatus()``, waiting at most `seconds`: a child still running then is killed
    /// (SIGKILL) with its process group, reaped, and the answer is nil. A test that waits for a
    /// child it told to stop then fails, rather than hangs, when the child missed what it was told.
    public func reapExitStatus(within seconds: Double) -> Int32? {
        let status = Mutex<Int32?>(nil)
        let reaped = DispatchSemaphore(value: 0)
        let reaper = Thread { [self] in
            let code = reapExitStatus()
            status.withLock { $0 = code }
            reaped.signal()
        }
        SignalMask.startingThread { reaper.start() }
        if reaped.wait(timeout: .now() + seconds) == .success { return status.withLock { $0 } }
        killGroup(SIGKILL)
        // SIGKILL cannot be caught: only a child stuck in the kernel outlives this bound.
        _ = reaped.wait(timeout: .now() + 30)
        return nil
    }

    /// Sends `signal` to this child's process group: Foundation starts every child as the leader
    /// of a group of its own, so the programs it started (an `exec` plugin's) get it too. The
    /// group outlives its leader's reaping while a member lives, so its id is never reused then.
    public func killGroup(_ signal: Int32) {
        kill(-processIdentifier, signal)
    }

    /// Whether the process `pid` has ended: gone, or a zombie waiting to be reaped (an orphan's
    /// by init), polled until `seconds` have passed. For a test that checks that a child, or
    /// what the child started, did not outlive it.
    public static func hasEnded(_ pid: pid_t, within seconds: Double = 0) -> Bool {
        func ended() -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
            // The state follows the command name, which is in parentheses and may hold any byte.
            guard let close = stat.lastIndex(of: ")"), stat.distance(from: close, to: stat.endIndex) > 2 else {
                return false
            }
            return stat[stat.index(close, offsetBy: 2)] == "Z"
        }
        let deadline = Date(timeIntervalSinceNow: seconds)
        while !ended() && Date() < deadline { usleep(2_000) }
        return ended()
    }
}
