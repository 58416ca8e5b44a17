import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Repairing a file on disk: beside, then renamed into place; in place when the disk has no
/// room for a copy. Either way nothing is left beside the file but its original.
extension LogRepair {
    /// Repairs the file at `path`.
    ///
    /// The original is kept as `path.orig` — a hard link, which takes no room — and the repaired
    /// bytes are written beside and renamed over `path`, so a crash during repair loses nothing.
    /// When there is no room for that copy (a full disk, a quota, a file-size limit), the file
    /// is repaired in place instead: cut after its last complete item and closed; the partial
    /// item it dropped is then not kept. A `.orig` of other bytes is never overwritten (the next
    /// free `path.orig.N` is taken); one that is empty, or the file itself, is reused.
    /// - Throws: ``Failure`` naming the file: unreadable, not a logger log, or not writable.
    public static func repairFile(atPath path: String) throws(Failure) -> Outcome {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(path: path, reason: "cannot read the file")
        }
        let result: Result
        do {
            result = try repair([UInt8](data), format: formatHint(path))
        } catch {
            throw Failure(path: path, reason: error.reason)
        }
        guard result.changed else { return Outcome(path: path, result: result, backupPath: nil) }
        let backup = saveOriginal(of: path, data)
        guard let saved = backup.path else {
            try repairInPlace(path, result)
            return Outcome(path: path, result: result, backupPath: nil, inPlaceReason: backup.failure)
        }
        do {
            try RecordFile.write(result.bytes, to: path, inPlace: false)
            return Outcome(path: path, result: result, backupPath: saved)
        } catch {
            // A link shares the file's bytes: repairing in place would change the "original" too.
            if backup.linked { unlink(saved) }
            try repairInPlace(path, result)
            return Outcome(
                path: path, result: result, backupPath: backup.linked ? nil : saved, inPlaceReason: error.reason)
        }
    }

    /// The format a file's name says, when it says one.
    static func formatHint(_ path: String) -> Format? {
        if path.hasSuffix(".jsonl") || path.hasSuffix(".ndjson") { return .jsonLines }
        if path.hasSuffix(".csv") { return .csv }
        return nil
    }

    /// Keeps the original as `path.orig`: a hard link where the file system has them, else a
    /// copy written beside and renamed. The backup's path, or why there is none.
    private static func saveOriginal(of path: String, _ data: Data) -> (path: String?, linked: Bool, failure: String?) {
        var n = 1
        while true {
            let candidate = n == 1 ? path + ".orig" : path + ".orig.\(n)"
            n += 1
            var existing = stat()
            if lstat(candidate, &existing) == 0 {
                var file = stat()
                let same = stat(path, &file) == 0 && file.st_ino == existing.st_ino && file.st_dev == existing.st_dev
                // The file itself (a repair interrupted before its rename) is the original.
                if same { return (candidate, true, nil) }
                // An empty one (left by an older daq on a full disk) holds nothing to lose.
                guard existing.st_size == 0, existing.st_mode & mode_t(S_IFMT) == mode_t(S_IFREG),
                    unlink(candidate) == 0
                else { continue }
            }
            if link(path, candidate) == 0 { return (candidate, true, nil) }
            if errno == EEXIST { continue }
            do {
                try RecordFile.write([UInt8](data), to: candidate, inPlace: false)
                return (candidate, false, nil)
            } catch {
                return (nil, false, error.reason)
            }
        }
    }

    /// Cuts the file after its last complete item and writes the closing bytes there: both
    /// fit in blocks the file already holds, so this works on a full disk.
    private static func repairInPlace(_ path: String, _ result: Result) throws(Failure) {
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(path: path, reason: "cannot open to repair: \(RecordFile.systemError())") }
        defer { close(fd) }
        let closing = Array(result.bytes[result.keptBytes...])
        // Cut first: a crash between the two leaves a log ending at an item, which repairs again.
        if ftruncate(fd, off_t(result.keptBytes)) != 0 {
            throw Failure(path: path, reason: "cannot cut the partial item: \(RecordFile.systemError())")
        }
        if let failure = RecordFile.writeAll(fd, closing, at: result.keptBytes) {
            throw Failure(path: path, reason: "cannot close the log in place: \(failure)")
        }
        if fsync(fd) != 0 { throw Failure(path: path, reason: "cannot sync: \(RecordFile.systemError())") }
    }
}
