import Dispatch
import Foundation

/// Tells a stage when a non-blocking descriptor (stdin, a pipe) has data, from a thread of
/// its own blocked in `poll(2)`.
///
/// This replaces a `DispatchSourceRead` on descriptors that reach end-of-file while the run
/// goes on: on Linux, cancelling such a source while libdispatch's manager thread still
/// drains its hang-up events crashed `daq` now and then after stdin closed. A plain thread
/// has no such race. It calls `onReadable` once, then waits until the reader has read the
/// descriptor dry (``rearm()``) before it polls again, so level-triggered readiness never
/// spins.
public final class ReadinessWatcher: @unchecked Sendable {
    private let descriptor: Int32
    private let onReadable: @Sendable () -> Void
    private var stopPipe: [Int32] = [-1, -1]
    private let drained = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private var thread: Thread?

    /// Creates a watcher; nothing happens until ``start()``.
    public init(descriptor: Int32, onReadable: @escaping @Sendable () -> Void) {
        self.descriptor = descriptor
        self.onReadable = onReadable
    }

    /// Starts the polling thread.
    /// - Throws: when the descriptor for waking it on stop cannot be made.
    public func start() throws {
        guard pipe(&stopPipe) == 0 else {
            throw ReadinessWatcherError(reason: String(cString: strerror(errno)))
        }
        let t = Thread { [self] in loop() }
        t.name = "daq.readiness.\(descriptor)"
        thread = t
        SignalMask.startingThread { t.start() }
    }

    /// The reader has read until `EAGAIN` (or the end): poll again.
    public func rearm() { drained.signal() }

    /// Ends the thread and waits for it; safe to call more than once.
    public func stop() {
        guard stopPipe[1] >= 0 else { return }
        var byte: UInt8 = 1
        _ = write(stopPipe[1], &byte, 1)
        drained.signal()
        if thread != nil { finished.wait() }
        close(stopPipe[0])
        close(stopPipe[1])
        stopPipe = [-1, -1]
        thread = nil
    }

    private func loop() {
        defer { finished.signal() }
        var fds = [
            pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: stopPipe[0], events: Int16(POLLIN), revents: 0),
        ]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let n = poll(&fds, 2, -1)
            if n < 0 && errno == EINTR { continue }
            if n < 0 || fds[1].revents != 0 { return }
            if fds[0].revents != 0 {
                onReadable()
                drained.wait()
                if fds[1].revents != 0 { return }
            }
        }
    }
}

/// The watcher could not start.
public struct ReadinessWatcherError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { "cannot watch the input: \(reason)" }
}
