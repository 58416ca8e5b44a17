import DAQCore

#if canImport(Glibc)
    import Glibc
#endif

/// What `daq repair` needs to close a Parquet file whose run was killed: kept beside the open
/// file as `<file>.footer`, rewritten (whole, by rename) each time a row group is complete.
///
/// Parquet's schema and row-group index live only in the footer, written at the end; a file
/// cut off before it is unreadable, though its completed row groups are intact. The checkpoint
/// holds the footer that would end the file at its last completed row group, and that
/// row group's end, so repair cuts whatever follows (a row group half written) and appends it.
/// The file is `DAQPQCK1`, the data's length as 8 bytes little-endian, then the footer.
public enum ParquetCheckpoint {
    /// Added to the data file's path.
    public static let suffix = ".footer"

    /// Where a checkpoint is written before its rename: a hidden name (`.NAME.partial`), which
    /// folder readers (pyarrow, DuckDB globs of `*.parquet`) pass over if a kill leaves it.
    static func partialPath(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." + path + ".partial" }
        return String(path[...slash]) + "." + String(path[path.index(after: slash)...]) + ".partial"
    }
    static let magic: [UInt8] = Array("DAQPQCK1".utf8)

    static func encode(dataLength: Int, footer: [UInt8]) -> [UInt8] {
        var out = magic
        out.reserveCapacity(16 + footer.count)
        for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: UInt64(dataLength) >> (8 * UInt64(i)))) }
        out.append(contentsOf: footer)
        return out
    }

    /// The data's length and the footer; `nil` for bytes that are not a checkpoint.
    static func decode(_ bytes: [UInt8]) -> (dataLength: Int, footer: [UInt8])? {
        guard bytes.count > 16, Array(bytes[0..<8]) == magic else { return nil }
        var length: UInt64 = 0
        for i in 0..<8 { length |= UInt64(bytes[8 + i]) << (8 * UInt64(i)) }
        guard length <= UInt64(Int.max) else { return nil }
        return (Int(length), Array(bytes[16...]))
    }

    /// Replaces the checkpoint at `path` with `bytes` by rename, so a kill leaves the old one
    /// or the new one whole; with `sync`, on the disk before the rename.
    static func write(_ bytes: [UInt8], to path: String, sync: Bool) throws {
        let partial = partialPath(path)
        let file = try OutputFile(path: partial)
        do {
            try file.write(bytes)
            if sync { try file.sync() } else { try file.flush() }
            try file.close()
        } catch {
            try? file.close()
            unlink(partial)
            throw error
        }
        guard rename(partial, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(partial)
            throw ParquetFormatError(path: path, "cannot replace the checkpoint: \(reason)")
        }
    }
}
