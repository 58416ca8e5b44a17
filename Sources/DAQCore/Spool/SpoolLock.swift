import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// One run at a time per spool directory, without waiting.
///
/// A POSIX record lock (`F_SETLK`) on the directory's `lock` file keeps out other processes;
/// unlike `flock`, a child this process spawns does not inherit it, so a program started at the
/// moment a spool closes (an `exec` stage, a test's broker) cannot hold it past the close, and
/// nothing has to wait for that child's `exec` to let go. Record locks do not exclude within one
/// process, so a set of the directories this process holds does that.
///
/// # Thread safety
/// The set of held directories sits behind a `Mutex`; a lock is released once, by ``release()``.
struct SpoolLock: Sendable {
    private static let held = Mutex<Set<String>>([])

    let descriptor: Int32
    private let key: String

    /// Takes `directory`'s lock.
    /// - Throws: ``SpoolError`` when this or another process holds it, or the file cannot be opened.
    init(directory: String) throws {
        let path = directory + "/lock"
        let fd = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SpoolError("cannot open \(path): \(String(cString: strerror(errno)))") }
        var st = stat()
        fstat(fd, &st)
        // The file's identity, so two spellings of one directory are one key.
        let key = "\(st.st_dev):\(st.st_ino)"
        let inUse = SpoolError("the spool \(directory) is in use by another running daq")
        guard Self.held.withLock({ $0.insert(key).inserted }) else {
            Foundation.close(fd)
            throw inUse
        }
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        guard fcntl(fd, F_SETLK, &lock) == 0 else {
            Foundation.close(fd)
            _ = Self.held.withLock { $0.remove(key) }
            throw inUse
        }
        descriptor = fd
        self.key = key
    }

    /// Closes the file, which releases the record lock, and lets this process take it again.
    func release() {
        Foundation.close(descriptor)
        _ = Self.held.withLock { $0.remove(key) }
    }
}
