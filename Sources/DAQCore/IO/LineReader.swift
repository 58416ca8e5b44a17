#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file descriptor line by line in large chunks, in constant memory.
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
    private var buffer: [UInt8] = []
    private var start = 0
    private var eof = false
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
        fd = opened
        owns = true
        name = path
    }

    /// Wraps an open descriptor (standard input), which it does not close.
    public init(descriptor: Int32, name: String) {
        fd = descriptor
        owns = false
        self.name = name
    }

    deinit { if owns { _ = close(fd) } }

    /// Passes the next line to `body`.
    /// - Throws: ``OutputFileError`` on a read error or a line longer than ``maxLineLength``.
    public func nextLine(_ body: (UnsafeBufferPointer<UInt8>) throws -> Void) throws -> Result {
        while true {
            if let nl = buffer[start...].firstIndex(of: 0x0A) {
                var end = nl
                if end > start, buffer[end - 1] == 0x0D { end -= 1 }
                lineNumber += 1
                let from = start
                start = nl + 1
                try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[from..<end])) }
                return .line
            }
            if eof {
                guard start < buffer.count else { return .end }
                lineNumber += 1
                let from = start
                start = buffer.count
                try buffer.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[from..<buffer.count])) }
                return .line
            }
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

    private enum Fill { case data, wouldBlock, end }

    private func fill() throws -> Fill {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        let chunk = 1 << 16
        let old = buffer.count
        buffer.append(contentsOf: repeatElement(0, count: chunk))
        while true {
            let n = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress! + old, chunk) }
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
