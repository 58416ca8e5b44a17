import Foundation
import Synchronization
import Testing

@testable import DAQCore

/// A thread that only watches a run (the view's readers, a tap's writer) yields the processor to
/// the pipeline: it runs at nice 19, and the process's other threads keep theirs.
@Suite(
    "the priority of watcher threads",
    .enabled(
        if: FileManager.default.fileExists(atPath: "/proc/thread-self/stat"), "the nice value is per thread on Linux")
)
struct WatcherPriorityTests {
    /// The calling thread's nice value, as the kernel reports it (the 19th field of its `stat`).
    static func niceOfThisThread() throws -> Int {
        let stat = try String(contentsOfFile: "/proc/thread-self/stat", encoding: .utf8)
        // The name, in parentheses, may hold spaces: the fields are counted after its end.
        let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
        return try #require(Int(fields[16]))
    }

    @Test func aWatcherThreadRunsAtNice19AndTheOthersKeepTheirs() throws {
        let before = try Self.niceOfThisThread()
        let seen = Mutex<Int?>(nil)
        let done = DispatchSemaphore(value: 0)
        let t = Thread {
            WatcherPriority.lowerCallingThread()
            seen.withLock { $0 = try? Self.niceOfThisThread() }
            done.signal()
        }
        t.start()
        done.wait()
        #expect(seen.withLock { $0 } == 19)
        #expect(try Self.niceOfThisThread() == before)
    }
}
