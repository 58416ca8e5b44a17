import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A file written through one in-memory buffer: bytes reach the kernel in large writes, not
/// one syscall per sample, and ``sync()`` makes them durable.
///
/// # Thread safety
/// Not thread-safe: a sink owns one and uses it on its stage's queue.
public final class OutputFile {
    /// The path, or `-` for standard output.
    public let path: String
    /// The descriptor written to; nil once ``close()`` gave it back, so that a second close
    /// cannot close the descriptor the process has since reused for another file.
    private var fd: Int32?
    private let ownsDescriptor: Bool
    private var buffer: [UInt8] = []
    /// Bytes written (buffered included) since opening.
    public private(set) var bytesWritten = 0
    /// Bytes handed to the kernel.
    public private(set) var bytesFlushed = 0
    /// When the buffer exceeds this many bytes, it is written out.
    public var highWater = 1 << 16

    /// Opens `path` for writing (truncating, or appending), creating missing parent directories;
    /// `-` is standard output.
    /// - Throws: ``OutputFileError`` naming the path and the system's reason.
    public init(path: String, append: Bool = false) throws {
        self.path = path
        buffer.reserveCapacity(1 << 17)
        if path == "-" {
            fd = STDOUT_FILENO
            ownsDescriptor = false
            return
        }
        let dir = (path as NSString).deletingLastPathComponent
        if !dir.isEmpty {
            do {
                try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            } catch {
                throw OutputFileError(
                    path: path, reason: "cannot create directory '\(dir)': \(error.localizedDescription)")
            }
        }
        let flags = O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC) | Self.noFollow(path)
        let opened = open(path, flags, 0o644)
        guard opened >= 0 else {
            let reason =
                errno == ELOOP
                ? "it is a symbolic link, and outputs are never written through one (remove it, or name its target)"
                : String(cString: strerror(errno))
            throw OutputFileError(path: path, reason: reason)
        }
        fd = opened
        ownsDescriptor = true
    }

    /// `O_NOFOLLOW`, except under `/dev`: a symbolic link planted where an output goes must
    /// not turn the write onto another file, while a device path (`/dev/stdout`) is the user's
    /// own choice, in a folder only the system writes.
    private static func noFollow(_ path: String) -> Int32 {
        path.hasPrefix("/dev/") ? 0 : O_NOFOLLOW
    }

    /// Wraps an open descriptor (standard output, a pipe) without owning it.
    public init(descriptor: Int32, name: String) {
        path = name
        fd = descriptor
        ownsDescriptor = false
    }

    /// Appends bytes to the buffer, writing out when it is past ``highWater``.
    @inlinable
    public func write<C: Collection>(_ bytes: C) throws where C.Element == UInt8 {
        appendToBuffer(bytes)
        if bufferedCount >= highWater { try flush() }
    }

    /// Appends the UTF-8 of a string.
    public func write(_ text: String) throws {
        var t = text
        t.withUTF8 { appendToBuffer($0) }
        if bufferedCount >= highWater { try flush() }
    }

    /// Gives direct access to the buffer, for encoders that append bytes in place.
    public func withBuffer<R>(_ body: (inout [UInt8]) throws -> R) throws -> R {
        let before = buffer.count
        let r = try body(&buffer)
        bytesWritten += buffer.count - before
        if buffer.count >= highWater { try flush() }
        return r
    }

    @usableFromInline
    func appendToBuffer<C: Collection>(_ bytes: C) where C.Element == UInt8 {
        buffer.append(contentsOf: bytes)
        bytesWritten += bytes.count
    }

    @usableFromInline
    var bufferedCount: Int { buffer.count }

    /// Hands every buffered byte to the kernel.
    /// - Throws: ``OutputFileError`` (a full disk, a closed pipe).
    public func flush() throws {
        guard let fd else {
            if buffer.isEmpty { return }
            throw OutputFileError(path: path, reason: "written after it was closed")
        }
        var offset = 0
        while offset < buffer.count {
            let n = buffer.withUnsafeBytes { raw in
                Glibc.write(fd, raw.baseAddress! + offset, raw.count - offset)
            }
            if n < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                // What the kernel took is in the file: counted, so offsets taken from
                // `bytesWritten` (a Parquet footer's) stay those of the bytes on disk.
                bytesFlushed += offset
                buffer.removeFirst(offset)
                throw OutputFileError(path: path, reason: reason)
            }
            offset += n
        }
        bytesFlushed += buffer.count
        buffer.removeAll(keepingCapacity: true)
    }

    /// Forgets the bytes not handed to the kernel yet. After ``flush()`` threw, a sink that has
    /// reported what they held as failed (or sent it to its dead letters) calls this, so the
    /// bytes neither reach the file later nor fail ``close()`` again.
    /// - Returns: how many bytes were dropped.
    @discardableResult
    public func discardBuffered() -> Int {
        let dropped = buffer.count
        buffer.removeAll(keepingCapacity: true)
        bytesWritten -= dropped
        return dropped
    }

    /// Flushes and asks the kernel to put the bytes on the disk.
    public func sync() throws {
        try flush()
        if ownsDescriptor, let fd { _ = fsync(fd) }
    }

    /// Flushes and closes; closing again does nothing. A close whose flush threw leaves the file
    /// open, so a sink can report the bytes, ``discardBuffered()`` and close again.
    public func close() throws {
        guard let descriptor = fd else { return }
        try flush()
        fd = nil
        if ownsDescriptor { _ = Glibc.close(descriptor) }
    }
}

/// A file that could not be opened or written.
public struct OutputFileError: Error, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "\(path): \(reason)" }
}
