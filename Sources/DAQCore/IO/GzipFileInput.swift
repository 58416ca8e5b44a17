#if canImport(Glibc)
    import Glibc
#endif

/// A gzip file read through ``GzipDecoder``: what ``LineReader`` and ``ByteReader`` read a
/// compressed file with, so both verify every member and report damage by compressed offset.
///
/// # Thread safety
/// Not thread-safe: one reader owns it.
final class GzipFileInput {
    private let fd: Int32
    private let decoder = GzipDecoder()
    private var input = [UInt8](repeating: 0, count: 1 << 17)
    /// `input[start..<end]` is read from the file and not yet decoded.
    private var start = 0
    private var end = 0
    private var eof = false

    /// Reads from `fd`, which its owner closes.
    init(fd: Int32) { self.fd = fd }

    /// Compressed bytes decoded so far.
    var compressedOffset: Int64 { decoder.offset }
    /// Content bytes produced so far.
    var contentOffset: Int64 { decoder.produced }

    /// Fills `output` with decompressed bytes.
    /// - Returns: the number of bytes filled; 0 only at the end of a whole, verified stream.
    /// - Throws: ``GzipError`` for damaged or cut gzip data (after the content before it was
    ///   returned); ``ReadError`` when the file cannot be read.
    func read(into output: UnsafeMutableRawBufferPointer) throws -> Int {
        precondition(!output.isEmpty)
        while true {
            // Decoding runs even without new input: zlib may hold output that did not fit before.
            let (used, made) = try input.withUnsafeBytes { raw in
                try decoder.decode(UnsafeRawBufferPointer(rebasing: raw[start..<end]), into: output)
            }
            start += used
            if made > 0 { return made }
            if used > 0 { continue }
            if eof {
                try decoder.finish()
                return 0
            }
            try refill()
        }
    }

    /// Reads more of the file after what is left undecoded.
    private func refill() throws {
        if start > 0 {
            let left = end - start
            if left > 0 { input.withUnsafeMutableBytes { _ = memmove($0.baseAddress!, $0.baseAddress! + start, left) } }
            start = 0
            end = left
        }
        if end == input.count { input.append(contentsOf: repeatElement(0, count: input.count)) }
        while true {
            let n = input.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress! + end, raw.count - end) }
            if n < 0 {
                if errno == EINTR { continue }
                throw ReadError(reason: String(cString: strerror(errno)))
            }
            if n == 0 { eof = true } else { end += n }
            return
        }
    }

    /// The file could not be read.
    struct ReadError: Error {
        var reason: String
    }
}
