import DAQCore

#if canImport(Glibc)
    import Glibc
#endif

/// An XDF file's content, front to back, through a read-ahead buffer: varints and tags are read
/// from memory, not one system call each. `.xdf.gz` (recognised by its content) is inflated on
/// the way, so offsets are always in the uncompressed content.
///
/// # Thread safety
/// Not thread-safe: one reader owns it.
final class XDFInput {
    let path: String
    private let reader: ByteReader
    private var buffer: [UInt8] = []
    /// The unread bytes are `buffer[start..<end]`.
    private var start = 0
    private var end = 0
    /// The content offset of `buffer[start]`.
    private(set) var position: Int64 = 0
    private static let readAhead = 1 << 16

    /// Opens `path`.
    /// - Throws: ``XDFFileError`` when it cannot be read.
    init(path: String) throws {
        self.path = path
        do {
            reader = try ByteReader(path: path)
        } catch {
            throw XDFFileError(path: path, problem: "cannot read: \(error)")
        }
    }

    /// Whether the file is gzip-compressed.
    var isCompressed: Bool { reader.isCompressed }

    /// Makes at least `count` bytes available, unless the content ends first.
    /// - Returns: how many are available (fewer than `count` only at the end).
    private func fill(_ count: Int) throws -> Int {
        if end - start >= count { return end - start }
        if start > 0 {
            // The unread tail moves to the front: the buffer keeps its size and is reused.
            let (from, length) = (start, end - start)
            buffer.withUnsafeMutableBytes { raw in _ = memmove(raw.baseAddress!, raw.baseAddress! + from, length) }
            end -= start
            start = 0
        }
        let size = Swift.max(count, Self.readAhead)
        // Grown only for a chunk longer than any before; zero-filled in one go.
        if buffer.count < size { buffer += [UInt8](repeating: 0, count: size - buffer.count) }
        // One read fills the buffer unless the content ends: ByteReader reads short only at the end.
        end += try reader.read(into: &buffer, at: end, count: buffer.count - end)
        return end - start
    }

    /// The next `count` bytes, consumed; `nil` (with what there was consumed) when the content
    /// ends first. The slice is valid until the next call.
    func take(_ count: Int) throws -> ArraySlice<UInt8>? {
        let available = try fill(count)
        guard available >= count else {
            position += Int64(available)
            start = end
            return nil
        }
        let slice = buffer[start..<(start + count)]
        start += count
        position += Int64(count)
        return slice
    }

    /// Consumes `count` bytes without keeping them.
    /// - Returns: whether there were that many.
    func skip(_ count: Int64) throws -> Bool {
        let buffered = Int64(end - start)
        if count <= buffered {
            start += Int(count)
            position += count
            return true
        }
        position += buffered
        start = 0
        end = 0
        let left = count - buffered
        let skipped = try reader.skip(Int(left))
        position += Int64(skipped)
        return Int64(skipped) == left
    }

    /// Goes forward to `offset`, which must not be behind ``position``.
    func seek(to offset: Int64) throws -> Bool {
        precondition(offset >= position, "XDFInput only goes forward")
        return try skip(offset - position)
    }

    /// Goes on just past the next Boundary chunk's 16 signature bytes.
    /// - Returns: whether one was found; at the end of the content otherwise.
    func scanPastBoundary() throws -> Bool {
        let signature = XDFChunkTag.boundarySignature
        while true {
            let available = try fill(signature.count)
            if available < signature.count {
                position += Int64(available)
                start = end
                return false
            }
            var i = start
            while i + signature.count <= end {
                if buffer[i] == signature[0] && buffer[i..<(i + signature.count)].elementsEqual(signature) {
                    position += Int64(i + signature.count - start)
                    start = i + signature.count
                    return true
                }
                i += 1
            }
            // Keep the last bytes: the signature may straddle two reads.
            let keep = signature.count - 1
            position += Int64(end - keep - start)
            start = end - keep
        }
    }
}
