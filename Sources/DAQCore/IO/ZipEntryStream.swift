/// Streams one member of a ``ZipArchive``, decompressed, in chunks the caller asks for: a
/// member of gigabytes is read in constant memory.
///
/// Whatever was read before damage is handed out first; the call after it throws, naming the
/// file, the member and the byte offset.
///
/// # Thread safety
/// Not thread-safe: one reader owns it.
public final class ZipEntryStream {
    /// The member read.
    public let entry: ZipEntry
    private let archive: ZipArchive
    /// Offset of the member's data in the file.
    public let dataStart: Int64
    private let dataEnd: Int64?
    private var inputAt: Int64
    private var input: [UInt8]
    private var inputStart = 0
    private var inputCount = 0
    private let inflater: Inflater?
    private var pending: OutputFileError?
    private var ended = false
    /// Decompressed bytes handed out so far: the offset in the member of the next byte.
    public private(set) var produced: Int64 = 0

    /// Opens `entry` of `archive` for reading.
    /// - Throws: ``OutputFileError`` if its local header is damaged or its method is neither
    ///   stored nor deflated.
    public init(archive: ZipArchive, entry: ZipEntry, chunkSize: Int = 1 << 18) throws {
        self.archive = archive
        self.entry = entry
        let header = try archive.read(at: entry.headerOffset, count: 30)
        guard header.count == 30, header[0] == 0x50, header[1] == 0x4B, header[2] == 3, header[3] == 4 else {
            throw OutputFileError(
                path: archive.path, reason: "the local header of \(entry.name) at byte \(entry.headerOffset) is damaged"
            )
        }
        let nameLength = Int(header[26]) | Int(header[27]) << 8
        let extraLength = Int(header[28]) | Int(header[29]) << 8
        // The header was read, so its offset lies in the file; a size past the file's end is
        // refused before it is added to anything.
        let start = entry.headerOffset + 30 + Int64(nameLength + extraLength)
        if let size = entry.compressedSize, size < 0 || size > archive.fileSize {
            throw OutputFileError(
                path: archive.path,
                reason:
                    "\(PrintableText.escaped(entry.name)) claims \(size) stored bytes in a file of \(archive.fileSize)")
        }
        dataStart = start
        dataEnd = entry.compressedSize.map { start + $0 }
        inputAt = start
        switch entry.method {
        case 0: inflater = nil
        case 8: inflater = try Inflater()
        default:
            throw OutputFileError(
                path: archive.path,
                reason:
                    "\(entry.name) uses zip compression method \(entry.method); only stored and deflated members are read"
            )
        }
        input = [UInt8](repeating: 0, count: inflater == nil ? 0 : chunkSize)
    }

    /// Fills `buffer` with the next decompressed bytes.
    /// - Returns: the bytes written; 0 at the end of the member.
    /// - Throws: ``OutputFileError`` when the file ends inside the member (cut short) or its
    ///   deflate data is bad, after the bytes before that point were returned.
    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if let pending {
            self.pending = nil
            ended = true
            throw pending
        }
        if ended || buffer.isEmpty { return 0 }
        let n = try inflater == nil ? readStored(into: buffer) : readDeflated(into: buffer)
        produced += Int64(n)
        if n == 0 {
            ended = true
            if let pending {
                self.pending = nil
                throw pending
            }
            if let size = entry.uncompressedSize, size != produced {
                throw error("\(entry.name) ends after \(produced) bytes of content, but the zip directory says \(size)")
            }
        }
        return n
    }

    private func readStored(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let want = dataEnd.map { Int(min(Int64(buffer.count), $0 - inputAt)) } ?? buffer.count
        guard want > 0 else { return 0 }
        let n = try archive.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: inputAt)
        inputAt += Int64(n)
        if n < want || dataEnd == nil && n == 0 { pending = cutShort() }
        return n
    }

    private func readDeflated(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard let inflater else { return 0 }
        var filled = 0
        while filled < buffer.count && !inflater.finished {
            if inputCount == 0 {
                let want = dataEnd.map { Int(min(Int64(input.count), $0 - inputAt)) } ?? input.count
                let n =
                    want > 0
                    ? try input.withUnsafeMutableBytes {
                        try archive.read(into: UnsafeMutableRawBufferPointer(rebasing: $0[0..<want]), at: inputAt)
                    } : 0
                if n == 0 {
                    pending =
                        (dataEnd.map { inputAt < $0 } ?? true)
                        ? cutShort()
                        : error(
                            "the deflate data of \(entry.name) ends at byte \(inputAt) before its last block (after \(produced + Int64(filled)) bytes of content)"
                        )
                    break
                }
                inputAt += Int64(n)
                inputStart = 0
                inputCount = n
            }
            let step: (consumed: Int, produced: Int)
            do {
                step = try input.withUnsafeBytes { inBytes in
                    try inflater.inflate(
                        UnsafeRawBufferPointer(rebasing: inBytes[inputStart..<(inputStart + inputCount)]),
                        into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
            } catch let bad as InflateError {
                pending = error(
                    "bad deflate data in \(entry.name) at byte \(dataStart + bad.offset) (after \(produced + Int64(filled)) bytes of content): \(bad.message)"
                )
                break
            }
            inputStart += step.consumed
            inputCount -= step.consumed
            filled += step.produced
        }
        return filled
    }

    private func cutShort() -> OutputFileError {
        error(
            "the file is cut short: it ends at byte \(min(inputAt, archive.fileSize)) inside \(entry.name), after \(produced) bytes of its content"
        )
    }

    private func error(_ reason: String) -> OutputFileError { OutputFileError(path: archive.path, reason: reason) }
}

extension ZipArchive {
    /// Reads a small member whole (a text header such as `info.txt`), at most `limit` bytes.
    /// - Throws: ``OutputFileError`` if it is damaged or larger than `limit`.
    public func contents(of entry: ZipEntry, limit: Int = 1 << 20) throws -> [UInt8] {
        let stream = try ZipEntryStream(archive: self, entry: entry, chunkSize: 1 << 14)
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let n = try chunk.withUnsafeMutableBytes { try stream.read(into: $0) }
            if n == 0 { return out }
            out.append(contentsOf: chunk[0..<n])
            if out.count > limit {
                throw OutputFileError(path: path, reason: "\(entry.name) is larger than \(limit) bytes")
            }
        }
    }
}
