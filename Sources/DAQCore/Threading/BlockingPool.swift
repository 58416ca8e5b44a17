import Dispatch
import Foundation
import Synchronization

/// The few threads on which unavoidably blocking work runs (waiting for a child process, a
/// blocking `ioctl`), so it never holds a thread of the shared pool the stages run on.
///
/// At most ``limit`` threads, made when work comes and none is idle, and kept parked for the
/// next job; work beyond that waits its turn in order. A job that blocks for ever holds one
/// of them for ever: offload only work that ends by itself.
///
/// # Thread safety
/// The queue of jobs and the counts sit behind one `Mutex`; a semaphore counts queued jobs.
final class BlockingPool: Sendable {
    /// The process's pool: ``StageContext/offload(_:then:)`` runs here.
    static let shared = BlockingPool(limit: 8)

    /// The most threads this pool runs at once.
    let limit: Int

    private struct State {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        var threads = 0
        var busy = 0
        var peakBusy = 0
    }

    private let state = Mutex(State())
    private let queued = DispatchSemaphore(value: 0)

    init(limit: Int) {
        precondition(limit > 0, "a blocking pool needs a thread")
        self.limit = limit
    }

    /// Runs `job` on one of the pool's threads, after the jobs before it.
    func submit(_ job: @escaping @Sendable () -> Void) {
        let spawn = state.withLock { s -> Bool in
            s.jobs.append(job)
            let waiting = s.jobs.count - s.head
            guard s.threads < limit, s.threads - s.busy < waiting else { return false }
            s.threads += 1
            return true
        }
        if spawn {
            let thread = Thread { [self] in work() }
            thread.name = "daq.blocking"
            SignalMask.startingThread { thread.start() }
        }
        queued.signal()
    }

    /// Threads made so far, and the most that ran a job at once.
    var counts: (threads: Int, peakBusy: Int) {
        state.withLock { ($0.threads, $0.peakBusy) }
    }

    private func work() {
        while true {
            queued.wait()
            let job = state.withLock { s -> @Sendable () -> Void in
                let job = s.jobs[s.head]
                s.head += 1
                // Keep the array from growing for the life of the process.
                if s.head == s.jobs.count {
                    s.jobs.removeAll(keepingCapacity: true)
                    s.head = 0
                }
                s.busy += 1
                s.peakBusy = max(s.peakBusy, s.busy)
                return job
            }
            job()
            state.withLock { $0.busy -= 1 }
        }
    }
}
