import Dispatch
import Foundation
import Synchronization

/// Watches one descriptor from a thread of its own blocked in `poll(2)`, and runs the handler
/// on the stage's queue: what ``StageContext/watch(fileDescriptor:for:closesDescriptor:_:)``
/// runs on.
///
/// Not a `DispatchSourceRead`/`Write`: on Linux, libdispatch's manager thread crashed `daq` now
/// and then (a bad pointer in `_dispatch_event_loop_drain`) when such a source was cancelled
/// while the pipe it watched hung up, as a child process's pipes do when it exits (see also
/// ``ReadinessWatcher``). A plain thread has no such race. After each event it waits until the
/// handler has run before it polls again, so level-triggered readiness never spins ahead of the
/// stage. The descriptor is closed, when asked, by this thread after its last poll: the only
/// moment no one can still be polling it.
final class PollWatch: @unchecked Sendable {
    // @unchecked: every property is set in `init` and never changed but `pipeOpen`, behind its
    // Mutex: `stop()` never writes to a stop pipe the thread has closed (its number may be
    // another file's by then).
    private let descriptor: Int32
    private let events: Int16
    private let queue: DispatchQueue
    private let closesDescriptor: Bool
    private let handler: @Sendable () -> Void
    private let stopPipe: [Int32]
    private let pipeOpen = Mutex(true)

    /// `nil` when no stop pipe can be made (out of descriptors); the descriptor is then closed,
    /// if asked.
    init?(
        descriptor: Int32, for event: DescriptorEvent, queue: DispatchQueue, closesDescriptor: Bool,
        handler: @escaping @Sendable () -> Void
    ) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            if closesDescriptor { _ = close(descriptor) }
            return nil
        }
        stopPipe = fds
        self.descriptor = descriptor
        self.events = Int16(event == .read ? POLLIN : POLLOUT)
        self.queue = queue
        self.closesDescriptor = closesDescriptor
        self.handler = handler
    }

    /// Starts the thread; `isCancelled` is asked on the stage's queue before each call of the
    /// handler, so none starts after a cancel made there. A ``stop()`` before this holds: the
    /// thread's first poll sees it.
    func start(isCancelled: @escaping @Sendable () -> Bool) {
        let stopRead = stopPipe[0]
        let t = Thread { [self] in
            loop(stopRead: stopRead, isCancelled: isCancelled)
        }
        t.name = "daq.watch.\(descriptor)"
        SignalMask.startingThread { t.start() }
    }

    /// Ends the watch: the thread leaves its poll and closes what it should. Never waits.
    func stop() {
        pipeOpen.withLock { open in
            guard open else { return }
            var byte: UInt8 = 1
            _ = write(stopPipe[1], &byte, 1)
        }
    }

    private func loop(stopRead: Int32, isCancelled: @escaping @Sendable () -> Bool) {
        defer {
            pipeOpen.withLock { open in
                open = false
                close(stopPipe[0])
                close(stopPipe[1])
            }
            if closesDescriptor { _ = close(descriptor) }
        }
        var fds = [
            pollfd(fd: descriptor, events: events, revents: 0),
            pollfd(fd: stopRead, events: Int16(POLLIN), revents: 0),
        ]
        let handler = self.handler
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let n = poll(&fds, 2, -1)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let done = DispatchSemaphore(value: 0)
            queue.async {
                if !isCancelled() { handler() }
                done.signal()
            }
            done.wait()
            if fds[0].revents & Int16(POLLNVAL) != 0 { return }
        }
    }
}
