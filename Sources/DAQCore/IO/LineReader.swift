import CZlib

#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file descriptor line by line in large chunks, in constant memory. A gzip file
/// (recognised by its magic bytes, whatever its name) is decompressed on the fly.
///
/// # Thread safety
/// Not thread-safe: one source owns it on its stage's queue.
public final class LineReader {
    /// A line longer than this is an error, not a reason to exhaust memory.
    public var maxLineLength = 16 << 20
    /// The name used in messages.
    public let name: String
    private let fd: Int32
    private let owns: Bool
    private var gz: gzFile?
    private var buffer: [UInt8] = []
    private var start = 0
    /// `buffer[start..<scanned]` is known to hold no newline, so a long line is searched once.
    private var scanned = 0
    private var eof = false
    /// Whether the last line returned ended with a newline; `false` for a last line cut off.
    public private(set) var lastLineTerminated = true
    /// The 1-based number of the last line returned.
    public private(set) var lineNumber = 0

    /// What ``nextLine(_:)`` found.
    public enum Result {
        /// A whole line (without its `\n` or `\r\n`) was passed to the body.
        case line
        /// The descriptor would block: no whole line is available now.
        case wouldBlock
        /// End of input.
        case end
    }

    /// Opens `path`.
    /// - Throws: ``OutputFileError`` naming the path and the reason.
    public init(path: String) throws {
        let opened = open(path, O_RDONLY | O_CLOEXEC)
        guard opened >= 0 else { throw OutputFileError(path: path, reason: String(cString: strerror(errno))) }
        var st = stat()
        if fstat(opened, &st) == 0, (st.st_mode & S_IFMT) == S_IFDIR {
            _ = close(opened)
            throw OutputFileError(path: path, reason: "is a directory")
        }
        var magic: (UInt8, UInt8) = (0, 0)
        let n = withUnsafeMutableBytes(of: &magic) { pread(opened, $0.baseAddress, 2, 0) }
        if n == 2 && magic.0 == 0x1F && magic.1 == 0x8B {
            // zlib takes over the descriptor and closes it in gzclose.
            guard let g = gzdopen(opened, "rb") else {
                _ = close(opened)
                throw OutputFileError(path: path, reason: "cannot open as gzip")
            }
            gzbuffer(g, 1 << 17)
            gz = g
        }
        fd = opened
        owns = true
        name = path
    }

    /// Whether the end of the input has been reached (the last line may lack its newline).
    public var atEnd: Bool { eof && start >= buffer.count }

    /// Whether the input is gzip-compressed.
    public var isCompressed: Bool { gz != nil }

    /// Wraps an open descriptor (standard input), which it does not close.
    public init(descriptor: Int32, name: String) {
        fd = descriptor
        owns = false
        self.name = name
    }

    deinit {
        if let gz {
            gzclose(gz)
        } else if owns {
            _ = close(fd)
        }
    }

    /// Passes the next line to `body`.
    /// - Throws: ``OutputFileError`` on a read error or a line longer than ``maxLineLength``.
    public func nextLine(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Result {
        while true {
            if let nl = newline(from: max(start, scanned)) {
                var end = nl
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                lineNumber += 1
                lastLineTerminated = true
                let from = start
                start = nl + 1
                try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[from..<end])) }
                return .line
            }
            if eof {
                guard start < buffer.count else { return .end }
                lineNumber += 1
                lastLineTerminated = false
                let from = start
                start = buffer.count
                try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[from..<buffer.count])) }
                return .line
            }
            scanned = buffer.count
            if buffer.count - start > maxLineLength {
                throw OutputFileError(
                    path: name, reason: "line \(lineNumber + 1) is longer than \(maxLineLength) bytes without a newline")
            }
            switch try fill() {
            case .wouldBlock: return .wouldBlock
            default: continue
            }
        }
    }

    /// The index of the next `\n` at or after `from`, found with `memchr`.
    private func newline(from: Int) -> Int? {
        guard from < buffer.count else { return nil }
        return buffer.withUnsafeBytes { raw -> Int? in
            guard let p = memchr(raw.baseAddress! + from, 0x0A, raw.count - from) else { return nil }
            return raw.baseAddress!.distance(to: UnsafeRawPointer(p))
        }
    }

    private enum Fill { case data, wouldBlock, end }

    /// Room for one read, appended by copy: cheaper than a generated sequence in debug builds.
    private static let zeros = [UInt8](repeating: 0, count: 1 << 16)

    private func fill() throws -> Fill {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            scanned = max(scanned - start, 0)
            start = 0
        }
        let chunk = Self.zeros.count
        let old = buffer.count
        buffer.append(contentsOf: Self.zeros)
        while true {
            let n: Int = buffer.withUnsafeMutableBytes { raw in
                if let gz { return Int(gzread(gz, raw.baseAddress! + old, UInt32(chunk))) }
                return read(fd, raw.baseAddress! + old, chunk)
            }
            if n < 0, let gz {
                var code: Int32 = 0
                let message = gzerror(gz, &code).map { String(cString: $0) } ?? "gzip error"
                buffer.removeLast(chunk)
                throw OutputFileError(path: name, reason: "corrupt gzip data: \(message)")
            }
            if n < 0 {
                if errno == EINTR { continue }
                buffer.removeLast(chunk)
                if errno == EAGAIN || errno == EWOULDBLOCK { return .wouldBlock }
                throw OutputFileError(path: name, reason: String(cString: strerror(errno)))
            }
            buffer.removeLast(chunk - n)
            if n == 0 {
                eof = true
                return .end
            }
            return .data
        }
    }
}
