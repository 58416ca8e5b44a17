import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the small files that describe a run (`manifest.json`, a repaired log) so that a
/// failure leaves either the old file or the new one, and never debris beside them.
///
/// The first attempt writes a temporary file beside the target and renames it into place. When
/// that fails (a full disk, a file-size limit), the temporary file is removed and the bytes are
/// written over the target in place: a file the run already wrote holds disk blocks, and
/// overwriting them needs none, so the record still gets its last word on a full disk.
public enum RecordFile {
    /// How a write ended.
    public enum Outcome: Sendable, Equatable {
        /// Written beside and renamed into place.
        case replaced
        /// Written over the old file in place, after writing beside failed for this reason.
        case overwritten(besideFailed: String)
    }

    /// A write that failed both ways, with the reasons.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// The target file.
        public var path: String
        /// Why: the system's messages.
        public var reason: String
        public var description: String { "cannot write \(path): \(reason)" }
    }

    /// Writes `bytes` to `path`: atomically when there is room, else in place.
    /// - Parameter inPlace: whether the in-place fallback may be taken.
    /// - Throws: ``Failure`` when neither way worked; no temporary file is left.
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String, inPlace: Bool = true) throws(Failure) -> Outcome {
        let beside: String
        switch replace(path, with: bytes) {
        case nil: return .replaced
        case let reason?: beside = reason
        }
        guard inPlace else { throw Failure(path: path, reason: beside) }
        if let reason = overwrite(path, with: bytes) {
            throw Failure(path: path, reason: "\(beside); in place: \(reason)")
        }
        return .overwritten(besideFailed: beside)
    }

    /// Temporary file, then rename; returns the reason when it did not work.
    static func replace(_ path: String, with bytes: [UInt8]) -> String? {
        let temp = path + ".tmp"
        // O_TRUNC without O_EXCL: a temporary file an earlier crash left is simply reused.
        let fd = open(temp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return systemError() }
        var failure = writeAll(fd, bytes, at: 0)
        if failure == nil, fsync(fd) != 0, errno != EINVAL { failure = systemError() }
        if close(fd) != 0, failure == nil { failure = systemError() }
        if failure == nil, rename(temp, path) != 0 { failure = systemError() }
        if failure != nil { unlink(temp) }
        return failure
    }

    /// Writes over the target from its first byte and cuts it to the new length.
    static func overwrite(_ path: String, with bytes: [UInt8]) -> String? {
        let fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return systemError() }
        defer { close(fd) }
        if let failure = writeAll(fd, bytes, at: 0) { return failure }
        if ftruncate(fd, off_t(bytes.count)) != 0 { return systemError() }
        if fsync(fd) != 0, errno != EINVAL { return systemError() }
        return nil
    }

    /// `pwrite`s `bytes` at `offset` of `fd` until every byte is written.
    /// - Returns: the system's reason when a write fails, else `nil`.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> String? {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { raw in
                pwrite(fd, raw.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
            if n < 0 {
                if errno == EINTR { continue }
                return systemError()
            }
            done += n
        }
        return nil
    }

    /// The message of the current `errno`.
    public static func systemError() -> String { String(cString: strerror(errno)) }
}

/// The lock a running `daq` holds on each run directory it writes: the kernel releases it
/// when the process ends however it ends, so a directory whose manifest says `running` and
/// whose lock is free was left by a run that was killed.
///
/// # Thread safety
/// A value type holding one file descriptor; its owner (``RunRecorder``) guards it.
struct RunDirectoryLock: Sendable {
    let fd: Int32

    /// Takes the lock of `directory`; `nil` when it cannot be opened or is held elsewhere.
    static func take(_ directory: String) -> RunDirectoryLock? {
        // Close-on-exec: a child process (an exec plugin) must not keep the run looking alive.
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return RunDirectoryLock(fd: fd)
    }

    /// Whether a live process holds the lock of `directory`.
    static func isHeld(_ directory: String) -> Bool {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        if flock(fd, LOCK_EX | LOCK_NB) == 0 {
            flock(fd, LOCK_UN)
            return false
        }
        return errno == EWOULDBLOCK
    }

    func release() {
        flock(fd, LOCK_UN)
        close(fd)
    }
}
