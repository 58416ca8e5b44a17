#if canImport(Glibc)
    import Glibc
#endif

/// Reads a binary file front to back in large chunks, in constant memory. A gzip file
/// (recognised by its magic bytes, whatever its name) is decompressed on the fly and verified
/// (every member's CRC-32 and length): one that ends mid-stream or is damaged is a
/// ``CompressedInputError``, never a short file read as complete.
///
/// Device recordings (`.cwa` sectors, zip members) are read through it, so every binary reader
/// gets the same gzip handling and the same messages.
///
/// # Thread safety
/// Not thread-safe: one reader owns it on its stage's queue.
public final class ByteReader {
    /// The name used in messages.
    public let name: String
    private let fd: Int32
    private var gzip: GzipFileInput?
    /// Bytes of the (decompressed) stream consumed so far: the offset of the next byte returned.
    public private(set) var offset: Int64 = 0

    /// Opens `path`.
    /// - Throws: ``OutputFileError`` naming the path and the reason.
    public init(path: String) throws {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw OutputFileError(path: path, reason: OpenFailure.reason(path)) }
        var st = stat()
        if fstat(opened, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            _ = close(opened)
            throw OutputFileError(path: path, reason: "is a directory")
        }
        var magic: (UInt8, UInt8) = (0, 0)
        let n = withUnsafeMutableBytes(of: &magic) { pread(opened, $0.baseAddress, 2, 0) }
        if n == 2 && magic.0 == 0x1F && magic.1 == 0x8B { gzip = GzipFileInput(fd: opened) }
        fd = opened
        name = path
    }

    deinit {
        _ = close(fd)
    }

    /// Whether the input is gzip-compressed.
    public var isCompressed: Bool { gzip != nil }

    /// Reads up to `count` bytes into `buffer` starting at `at`, growing it if needed; fewer only at
    /// the end of the input.
    /// - Returns: the number of bytes read; 0 at the end.
    /// - Throws: ``OutputFileError`` on a read error; ``CompressedInputError`` for gzip data
    ///   that is damaged or cut short (with the compressed offset, and the offset in the content
    ///   where it ends).
    public func read(into buffer: inout [UInt8], at: Int = 0, count: Int) throws -> Int {
        if buffer.count < at + count { buffer.append(contentsOf: repeatElement(0, count: at + count - buffer.count)) }
        var total = 0
        while total < count {
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes { raw in
                    let p = raw.baseAddress! + at + total
                    if let gzip {
                        return try gzip.read(into: UnsafeMutableRawBufferPointer(start: p, count: count - total))
                    }
                    return Glibc.read(fd, p, count - total)
                }
            } catch let damage as GzipError {
                offset += Int64(total)
                throw CompressedInputError(path: name, gzip: damage, lastCompleteLine: nil, contentOffset: offset)
            } catch let failure as GzipFileInput.ReadError {
                throw OutputFileError(path: name, reason: failure.reason)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw OutputFileError(path: name, reason: String(cString: strerror(errno)))
            }
            if n == 0 { break }
            total += n
        }
        offset += Int64(total)
        return total
    }

    /// Skips `count` bytes; returns how many were skipped (fewer only at the end).
    /// - Throws: as ``read(into:at:count:)``.
    public func skip(_ count: Int) throws -> Int {
        if gzip == nil {
            let here = lseek(fd, 0, SEEK_CUR)
            let end = lseek(fd, 0, SEEK_END)
            let target = min(here + off_t(count), end)
            _ = lseek(fd, target, SEEK_SET)
            offset += Int64(target - here)
            return Int(target - here)
        }
        var scratch = [UInt8]()
        var left = count
        while left > 0 {
            let n = try read(into: &scratch, count: min(left, 1 << 16))
            if n == 0 { break }
            left -= n
        }
        return count - left
    }

}
