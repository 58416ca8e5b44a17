import DAQCore
import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Catches a descriptor closed twice anywhere in the process: while the code under test runs,
/// a thread of its own keeps opening pipes, holding a few and closing the oldest, and checks
/// before each close that every pipe it holds is still open and still the same pipe.
///
/// A second `close` of a number is harmless only until another thread reuses the number; then
/// it closes that thread's file, and the process goes on with a descriptor that is gone (or,
/// once the number is reused again, that is another file). The sentinel's pipes take every
/// number freed for a moment, as a busy process does, so such a close hits one of them.
///
/// ```swift
/// let harmed = DescriptorSentinel.watch { for _ in 0..<1000 { _ = try? ZipArchive(path: bad) } }
/// #expect(harmed.isEmpty, "\(harmed)")
/// ```
public enum DescriptorSentinel {
    /// Runs `body` while the sentinel churns its pipes.
    /// - Returns: One line for each pipe end found closed or replaced under the sentinel.
    public static func watch(_ body: () throws -> Void) rethrows -> [String] {
        let harmed = Findings()
        let done = DispatchSemaphore(value: 0)
        let churn = Thread {
            var held: [Held] = []
            while !harmed.stopped {
                var fds: [Int32] = [-1, -1]
                guard pipe(&fds) == 0 else { break }
                for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
                held += fds.map(Held.init)
                check(&held, harmed)
                while held.count > 16 { held.removeFirst().close(into: harmed) }
            }
            check(&held, harmed)
            for h in held { h.close(into: harmed) }
            done.signal()
        }
        SignalMask.startingThread { churn.start() }
        do {
            try body()
        } catch {
            harmed.stop()
            done.wait()
            throw error
        }
        harmed.stop()
        done.wait()
        return harmed.list
    }

    /// What the sentinel found, and whether it is to stop.
    private final class Findings: Sendable {
        private let state = Mutex((list: [String](), stopped: false))
        var list: [String] { state.withLock { $0.list } }
        var stopped: Bool { state.withLock { $0.stopped } }
        func stop() { state.withLock { $0.stopped = true } }
        func add(_ lines: [String]) { state.withLock { $0.list += lines } }
    }

    /// Reports and lets go of the pipe ends no longer the sentinel's. They are never closed:
    /// their numbers may be another thread's now.
    private static func check(_ held: inout [Held], _ harmed: Findings) {
        let wrong = held.compactMap { h in h.harm.map { (h.fd, $0) } }
        guard !wrong.isEmpty else { return }
        harmed.add(wrong.map(\.1))
        held.removeAll { h in wrong.contains { $0.0 == h.fd } }
    }

    /// One pipe end the sentinel holds, with the identity it had when it was opened.
    private struct Held {
        let fd: Int32
        let device: UInt
        let inode: UInt

        /// A pipe end just opened; one already closed under the sentinel has no identity, and
        /// ``harm`` says so.
        init(_ fd: Int32) {
            var st = stat()
            let open = fstat(fd, &st) == 0
            self.fd = fd
            device = open ? UInt(st.st_dev) : 0
            inode = open ? UInt(st.st_ino) : 0
        }

        /// What is wrong with it now, if anything.
        var harm: String? {
            var st = stat()
            guard fstat(fd, &st) == 0 else { return "descriptor \(fd) was closed under its owner" }
            guard UInt(st.st_dev) == device, UInt(st.st_ino) == inode else {
                return "descriptor \(fd) was closed under its owner and is another file now"
            }
            return nil
        }

        func close(into harmed: Findings) {
            guard Glibc.close(fd) != 0 else { return }
            harmed.add(["descriptor \(fd) could not be closed: \(String(cString: strerror(errno)))"])
        }
    }
}
