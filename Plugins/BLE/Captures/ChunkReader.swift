import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file through one fixed buffer, so memory stays the same whatever the file's size:
/// a record is looked at in place, then consumed.
final class ChunkReader {
    let path: String
    private let fd: Int32
    private var buffer: [UInt8]
    private var start = 0
    private var end = 0
    private var eof = false
    /// File offset of `buffer[start]`, for messages.
    private(set) var offset = 0
    /// Size of a regular file; a length field claiming more than is left is not believed.
    private var fileSize: Int?
    /// No record of a Bluetooth capture comes near this; a larger length is damage.
    static let recordLimit = 16 << 20

    init(path: String, capacity: Int = 1 << 20) throws {
        self.path = path
        fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw CaptureError(path: path, offset: nil, reason: OpenFailure.reason(path)) }
        var st = stat()
        if fstat(fd, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw CaptureError(path: path, offset: nil, reason: "is a directory")
        }
        if (st.st_mode & S_IFMT) == S_IFREG { fileSize = Int(st.st_size) }
        buffer = [UInt8](repeating: 0, count: capacity)
    }

    deinit { close(fd) }

    /// Makes `n` bytes available; `false` at the end of the file before `n` bytes.
    func ensure(_ n: Int) throws -> Bool {
        if end - start >= n { return true }
        if n > buffer.count {
            // A damaged length field must not make the reader allocate what it claims.
            if let fileSize, offset + n > fileSize { return false }
            guard n <= Self.recordLimit else {
                throw CaptureError(
                    path: path, offset: offset, reason: "a record of \(n) bytes: the capture is damaged here")
            }
            buffer += [UInt8](repeating: 0, count: n - buffer.count)
        }
        if start > 0 {
            buffer.withUnsafeMutableBytes { raw in
                _ = memmove(raw.baseAddress!, raw.baseAddress! + start, end - start)
            }
            end -= start
            start = 0
        }
        while end - start < n && !eof {
            let got = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + end, $0.count - end) }
            if got < 0 {
                if errno == EINTR { continue }
                throw CaptureError(path: path, offset: offset, reason: String(cString: strerror(errno)))
            }
            if got == 0 { eof = true }
            end += got
        }
        return end - start >= n
    }

    /// Bytes available now (after `ensure`).
    var available: Int { end - start }

    /// Calls `body` with the next `n` bytes (which `ensure(n)` made available).
    func peek<T>(_ n: Int, _ body: (UnsafeRawBufferPointer) throws -> T) rethrows -> T {
        try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[start..<(start + n)])) }
    }

    func consume(_ n: Int) {
        start += n
        offset += n
    }
}

/// A capture that cannot be read, with where.
public struct CaptureError: Error, CustomStringConvertible {
    public var path: String
    public var offset: Int?
    public var reason: String
    public var description: String { "\(path)\(offset.map { " at byte \($0)" } ?? ""): \(reason)" }
}
