import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Closes a Parquet file a killed run left open: cuts what follows its last completed row
/// group and appends the footer its checkpoint (``ParquetCheckpoint``) holds, so every reader
/// opens it with the rows of its completed row groups.
///
/// The repair is done in place: the bytes dropped are a row group cut short, which no reader
/// could use. Killed mid-way, it is run again from the same checkpoint (removed only once the
/// file is closed), so repairing twice changes nothing.
public enum ParquetRepair {
    /// What was done to one file.
    public struct Outcome: Sendable, CustomStringConvertible {
        public var path: String
        public var rows: Int64
        public var rowGroups: Int
        /// Bytes of a row group cut short that were dropped.
        public var droppedBytes: Int
        /// Whether the file was changed (false: it was complete already).
        public var changed: Bool

        public var description: String {
            guard changed else { return "\(path): complete, nothing to repair" }
            let dropped = droppedBytes == 0 ? "" : ", \(droppedBytes) bytes of a row group cut short dropped"
            return "\(path): closed with \(rows) rows in \(rowGroups) row groups\(dropped)"
        }
    }

    /// Whether `path` names a Parquet file or a checkpoint beside one.
    public static func isParquet(_ path: String) -> Bool {
        path.hasSuffix(".parquet") || path.hasSuffix(".parquet" + ParquetCheckpoint.suffix)
    }

    /// The Parquet files under `directory` (at any depth) that a run left open: those with a
    /// checkpoint beside them, sorted.
    public static func openFiles(in directory: String) -> [String] {
        guard let walk = FileManager.default.enumerator(atPath: directory) else { return [] }
        var found: [String] = []
        while let relative = walk.nextObject() as? String {
            guard relative.hasSuffix(".parquet" + ParquetCheckpoint.suffix) else { continue }
            found.append(directory + "/" + String(relative.dropLast(ParquetCheckpoint.suffix.count)))
        }
        return found.sorted()
    }

    /// Closes the file at `path` (or the one whose checkpoint `path` is) from its checkpoint.
    /// - Throws: ``ParquetFormatError`` naming the file and what is wrong: no checkpoint for a
    ///   file without a footer, a damaged checkpoint, a file shorter than its checkpoint says.
    public static func repairFile(atPath path: String) throws -> Outcome {
        let data =
            path.hasSuffix(ParquetCheckpoint.suffix) ? String(path.dropLast(ParquetCheckpoint.suffix.count)) : path
        let checkpointPath = data + ParquetCheckpoint.suffix
        guard FileManager.default.fileExists(atPath: checkpointPath) else {
            // Closed by its run: a footer a reader can open, or a file this cannot help.
            let summary = try ParquetFileSummary(path: data)
            return Outcome(
                path: data, rows: summary.rows, rowGroups: summary.rowGroups, droppedBytes: 0, changed: false)
        }
        guard let bytes = FileManager.default.contents(atPath: checkpointPath).map([UInt8].init),
            let (length, footer) = ParquetCheckpoint.decode(bytes)
        else {
            throw ParquetFormatError(
                path: checkpointPath, "not a checkpoint of the parquet sink (damaged, or not ours)")
        }
        var reader = ThriftCompactReader(footer)
        let meta: ThriftCompactReader.Value
        do { meta = try reader.readStruct() } catch {
            throw ParquetFormatError(path: checkpointPath, "its footer does not parse: \(error)")
        }
        let rows = meta[3]?.int ?? 0
        let groups = meta[4]?.list.count ?? 0
        if let summary = try? ParquetFileSummary(path: data) {
            // The run closed the file and was killed before it removed the checkpoint.
            unlink(checkpointPath)
            unlink(ParquetCheckpoint.partialPath(checkpointPath))
            return Outcome(
                path: data, rows: summary.rows, rowGroups: summary.rowGroups, droppedBytes: 0, changed: false)
        }
        let fd = open(data, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw ParquetFormatError(path: data, "cannot open: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            throw ParquetFormatError(path: data, "cannot stat: \(String(cString: strerror(errno)))")
        }
        let size = Int(status.st_size)
        var head = [UInt8](repeating: 0, count: 4)
        guard pread(fd, &head, 4, 0) == 4, head == ParquetFileWriter.magic else {
            throw ParquetFormatError(path: data, "does not start with PAR1: not the file its checkpoint describes")
        }
        guard size >= length, length >= 4 else {
            throw ParquetFormatError(
                path: data,
                "\(size) bytes, but its checkpoint says \(length) were written: the file lost data its row groups "
                    + "need (cut, or never reached the disk), so no footer can describe it")
        }
        var tail = footer
        let count = UInt32(footer.count)
        tail.append(contentsOf: (0..<4).map { UInt8(truncatingIfNeeded: count >> (8 * $0)) })
        tail.append(contentsOf: ParquetFileWriter.magic)
        let written = tail.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(length)) }
        guard written == tail.count else {
            let reason =
                written < 0 ? String(cString: strerror(errno)) : "only \(written) of \(tail.count) bytes written"
            throw ParquetFormatError(path: data, "cannot write its footer: \(reason)")
        }
        guard ftruncate(fd, off_t(length + tail.count)) == 0, fsync(fd) == 0 else {
            throw ParquetFormatError(path: data, "cannot write its footer: \(String(cString: strerror(errno)))")
        }
        unlink(checkpointPath)
        unlink(ParquetCheckpoint.partialPath(checkpointPath))
        return Outcome(path: data, rows: rows, rowGroups: groups, droppedBytes: size - length, changed: true)
    }
}
