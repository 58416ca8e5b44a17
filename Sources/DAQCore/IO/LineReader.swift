#if canImport(Glibc)
    import Glibc
#endif

/// Reads a file descriptor line by line in large chunks, in constant memory. A gzip file
/// (recognised by its magic bytes, whatever its name) is decompressed on the fly and verified:
/// one that is cut short or damaged raises ``CompressedInputError`` after the last whole line
/// before the damage, and the partial line after it is never returned.
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
    private var gzip: GzipFileInput?
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
        owns = true
        name = path
    }

    /// Whether the end of the input has been reached (the last line may lack its newline).
    public var atEnd: Bool { eof && start >= buffer.count }

    /// Whether the input is gzip-compressed.
    public var isCompressed: Bool { gzip != nil }

    /// Wraps an open descriptor (standard input), which it does not close.
    public init(descriptor: Int32, name: String) {
        fd = descriptor
        owns = false
        self.name = name
    }

    deinit {
        if owns { _ = close(fd) }
    }

    /// Passes the next line to `body`.
    /// - Throws: ``OutputFileError`` on a read error or a line longer than ``maxLineLength``;
    ///   ``CompressedInputError`` for gzip data cut short or damaged, once every whole line
    ///   before the damage has been returned.
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
                    path: name, reason: "line \(lineNumber + 1) is longer than \(maxLineLength) bytes without a newline"
                )
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
            let n: Int
            do {
                n = try buffer.withUnsafeMutableBytes { raw in
                    if let gzip { return try gzip.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[old...])) }
                    return read(fd, raw.baseAddress! + old, chunk)
                }
            } catch let damage as GzipError {
                buffer.removeLast(chunk)
                // Lines returned so far all ended in a newline: a cut one is returned only at the end.
                throw CompressedInputError(
                    path: name, gzip: damage, lastCompleteLine: lineNumber, contentOffset: gzip?.contentOffset ?? 0)
            } catch let failure as GzipFileInput.ReadError {
                buffer.removeLast(chunk)
                throw OutputFileError(path: name, reason: failure.reason)
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
