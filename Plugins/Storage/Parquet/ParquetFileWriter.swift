import DAQCore

#if canImport(Glibc)
    import Glibc
#endif

/// Writes one Parquet file: `PAR1`, row group after row group, then the footer.
///
/// While the file is open, ``checkpoint(keyValues:sync:)`` keeps beside it the footer that
/// would end it at its last completed row group (``ParquetCheckpoint``), for `daq repair`.
///
/// The schema lives only in the footer, so it may widen while the file is open: a column added
/// later gets an all-null chunk in every row group already written (a few bytes each: one RLE
/// run of zero definition levels), and the file stays one table.
///
/// # Thread safety
/// Not thread-safe: used by one sink on its queue.
final class ParquetFileWriter {
    let path: String
    private(set) var columns: [ParquetColumnSchema]
    private let file: OutputFile
    private let compressor: PageCompressor
    private(set) var rowGroups: [ParquetRowGroupInfo] = []
    private var scratch: [UInt8] = []
    /// Rows in the row groups written so far.
    private(set) var rowCount = 0

    /// Creates the file and writes its magic bytes.
    /// - Throws: when the file cannot be created, or the codec's library cannot be loaded.
    init(path: String, columns: [ParquetColumnSchema], codec: ParquetCodec, level: Int32? = nil) throws {
        compressor = try PageCompressor(codec: codec, level: level)
        self.path = path
        self.columns = columns
        file = try OutputFile(path: path)
        try file.write(Self.magic)
    }

    static let magic: [UInt8] = Array("PAR1".utf8)

    /// Bytes written so far, buffered ones included.
    var bytesWritten: Int { file.bytesWritten }
    /// Bytes handed to the kernel.
    var bytesFlushed: Int { file.bytesFlushed }

    /// Writes one row group from `buffers` (one per column, in schema order, each of `rows` rows).
    func writeRowGroup(_ buffers: [ParquetColumnBuffer]) throws {
        precondition(buffers.map(\.schema) == columns, "row group columns differ from the file's schema")
        guard let rows = buffers.first?.rowCount, rows > 0 else { return }
        var chunks: [ParquetColumnChunkInfo] = []
        chunks.reserveCapacity(buffers.count)
        for buffer in buffers {
            scratch.removeAll(keepingCapacity: true)
            chunks.append(
                try ParquetChunkEncoder.encode(
                    buffer, compressor: compressor, offset: Int64(file.bytesWritten), to: &scratch))
            try file.write(scratch)
        }
        rowGroups.append(ParquetRowGroupInfo(columns: chunks, rowCount: Int64(rows)))
        rowCount += rows
    }

    /// Adds `new` columns at the end of the schema, null in every row group already written.
    func addColumns(_ new: [ParquetColumnSchema]) throws {
        for column in new {
            precondition(column.optional, "a column added later must be optional: earlier rows have no value")
            columns.append(column)
            let nulls = ParquetColumnBuffer(schema: column)
            for g in rowGroups.indices {
                nulls.reset()
                nulls.appendNull(count: Int(rowGroups[g].rowCount))
                scratch.removeAll(keepingCapacity: true)
                rowGroups[g].columns.append(
                    try ParquetChunkEncoder.encode(
                        nulls, compressor: compressor, offset: Int64(file.bytesWritten), to: &scratch))
                try file.write(scratch)
            }
        }
    }

    /// Where ``checkpoint(keyValues:sync:)`` writes.
    var checkpointPath: String { path + ParquetCheckpoint.suffix }

    /// Hands every row group written to the kernel (and the disk with `sync`), then replaces the
    /// checkpoint with the footer that would end the file here: a run killed from now on
    /// loses no completed row group.
    func checkpoint(keyValues: [(key: String, value: String)], sync: Bool) throws {
        try flush(sync: sync)
        let footer = ParquetFileMetadata(
            columns: columns, rowGroups: rowGroups, keyValues: keyValues, createdBy: Self.createdBy
        ).encoded()
        try ParquetCheckpoint.write(
            ParquetCheckpoint.encode(dataLength: file.bytesFlushed, footer: footer), to: checkpointPath, sync: sync)
    }

    /// Hands what is buffered to the kernel, and to the disk when `sync` is set.
    func flush(sync: Bool) throws {
        if sync { try file.sync() } else { try file.flush() }
    }

    /// Writes the footer (with `keyValues` as its key/value metadata), syncs and closes; the
    /// checkpoint, no longer needed, goes.
    func close(keyValues: [(key: String, value: String)]) throws {
        let footer = ParquetFileMetadata(
            columns: columns, rowGroups: rowGroups, keyValues: keyValues, createdBy: Self.createdBy
        ).encoded()
        try file.write(footer)
        let length = UInt32(footer.count)
        try file.write((0..<4).map { UInt8(truncatingIfNeeded: length >> (8 * $0)) })
        try file.write(Self.magic)
        try file.sync()
        try file.close()
        unlink(checkpointPath)
    }

    /// The footer's `created_by`, in the `<application> version <semver>` form readers parse.
    static let createdBy = "DAQKit daq version 0.1.0"
}
