/// The data columns of a CSV output, grown as fields appear, in an order that does not depend
/// on where batches begin and end.
///
/// A new field takes its place by the first data or event row that has it; fields first met in
/// the same row keep their column order. One batch of a thousand samples and a thousand batches
/// of one therefore give the same columns, which is what lets a log written at the replay clock
/// match one written at the virtual clock.
public struct CSVFieldOrder: Sendable {
    /// The fields so far, in column order.
    public private(set) var fields: [String]
    private var known: Set<String>

    /// Starts with `fields` (a configured or already written set).
    public init(fields: [String] = []) {
        self.fields = fields
        known = Set(fields)
    }

    /// Adds the fields of `batch` not seen before, leaving out `excluded` names (the columns
    /// every row has anyway); returns the new ones, in the order they were added.
    public mutating func add(_ batch: Batch, excluding excluded: Set<String> = []) -> [String] {
        var found: [(row: Int, column: Int, name: String)] = []
        for (c, column) in batch.columns.enumerated()
        where !known.contains(column.name) && !excluded.contains(column.name) {
            for row in 0..<batch.count where batch.kinds[row] != .marker && !column.isAbsent(row) {
                found.append((row, c, column.name))
                break
            }
        }
        guard !found.isEmpty else { return [] }
        found.sort { ($0.row, $0.column) < ($1.row, $1.column) }
        let added = found.map(\.name)
        fields += added
        known.formUnion(added)
        return added
    }

    /// Adds `names` not seen before, in order; returns the new ones.
    public mutating func add(names: [String]) -> [String] {
        let added = names.filter { known.insert($0).inserted }
        fields += added
        return added
    }
}

/// A CSV file whose header may grow while rows are written, kept a valid CSV file at every moment.
///
/// While its columns stay the same, rows go straight into the file. When fields appear after rows
/// were written, the rows that follow go into a *part* file beside it (`scans.part1.csv`, …) that
/// starts with the wider header; at ``finish(header:width:)`` the parts are merged into one file
/// with the final header (earlier rows get empty cells for the later fields), written to a
/// temporary file and renamed into place, and the parts are removed. A run that crashes before
/// that leaves the file and its parts, each a complete CSV with its own header.
///
/// # Thread safety
/// Not thread-safe: one sink owns it on its stage's queue.
public final class GrowingCSVFile {
    /// The file's path.
    public let path: String
    /// Where rows go now: the file, or its latest part.
    public private(set) var output: OutputFile
    /// The files written, the first being `path`, each with the column count of its header.
    public private(set) var parts: [(path: String, width: Int)]
    /// Bytes written to the files before the current one (their own counts end when they close).
    private var earlierBytesWritten = 0
    private var earlierBytesFlushed = 0
    /// Whether `path` held rows of an earlier run or instance before this one opened it.
    private let appended: Bool

    /// Opens `path`, replacing it unless `append`.
    /// - Throws: ``OutputFileError`` naming the path and the reason.
    public init(path: String, append: Bool = false) throws {
        self.path = path
        appended = append && (FileManagerShim.size(of: path) ?? 0) > 0
        output = try OutputFile(path: path, append: append)
        parts = [(path, 0)]
    }

    /// Bytes written to every file, buffered or not.
    public var bytesWritten: Int { earlierBytesWritten + output.bytesWritten }
    /// Bytes handed to the kernel, in every file.
    public var bytesFlushed: Int { earlierBytesFlushed + output.bytesFlushed }

    /// Records the column count of the header the caller wrote to the current file.
    public func wroteHeader(width: Int) {
        parts[parts.count - 1].width = width
    }

    /// Ends the current file and opens the next part, into which the caller writes the wider
    /// header (and calls ``wroteHeader(width:)``) before the rows that follow.
    /// - Returns: the part's path, for the manifest.
    /// - Throws: ``OutputFileError`` when the current file cannot be flushed or the part created.
    @discardableResult
    public func startPart() throws -> String {
        let next = Self.partPath(path, parts.count)
        try output.flush()
        let part = try OutputFile(path: next)
        earlierBytesWritten += output.bytesWritten
        earlierBytesFlushed += output.bytesFlushed
        try output.close()
        output = part
        parts.append((next, 0))
        return next
    }

    /// `scans.csv` → `scans.part2.csv`; a name without `.csv` gets `.part2` appended.
    public static func partPath(_ path: String, _ n: Int) -> String {
        path.hasSuffix(".csv") ? String(path.dropLast(4)) + ".part\(n).csv" : path + ".part\(n)"
    }

    /// Whether ``finish(header:width:sync:)`` leaves parts beside the file: the file held an
    /// earlier run's rows under its own header, which this run must not rewrite.
    public var keepsParts: Bool { appended && parts.count > 1 }

    /// Closes the file; when parts were started, merges them under `header` (a whole line,
    /// newline included, of `width` columns) and removes them, unless ``keepsParts``.
    /// - Throws: ``OutputFileError`` when a file cannot be read, written or renamed; the parts are
    ///   then left as they are, each still a valid CSV file.
    public func finish(header: [UInt8], width: Int, sync: Bool = true) throws {
        if sync { try output.sync() } else { try output.flush() }
        try output.close()
        guard parts.count > 1, !appended else { return }
        let temporary = path + ".tmp"
        let merged = try OutputFile(path: temporary)
        do {
            try merged.write(header)
            for part in parts {
                try CSVPadding.copyRows(of: part.path, skippingHeader: true, adding: width - part.width, to: merged)
            }
            try merged.sync()
            try merged.close()
        } catch {
            try? merged.close()
            _ = FileManagerShim.remove(temporary)
            throw error
        }
        try FileManagerShim.rename(temporary, to: path)
        for part in parts.dropFirst() { _ = FileManagerShim.remove(part.path) }
        parts = [(path, width)]
        earlierBytesWritten = 0
        earlierBytesFlushed = 0
        output = merged
    }
}
