import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The few POSIX calls the control socket needs: a listening Unix socket, a connection to
/// one, and line-oriented reads and writes on blocking descriptors.
enum UnixSocket {
    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ what: String, path: String) {
            description = "\(what) \(path): \(String(cString: strerror(errno)))"
        }
    }

    private static func address(_ path: String) throws -> sockaddr_un {
        var addr = sockaddr_un()
        addr.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: addr.sun_path)
        guard bytes.count < capacity else {
            errno = ENAMETOOLONG
            throw Failure("socket path too long (\(bytes.count) of \(capacity - 1) bytes):", path: path)
        }
        withUnsafeMutableBytes(of: &addr.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return addr
    }

    /// A listening socket at `path`, readable and writable by its owner only.
    ///
    /// Bound in a new owner-only folder beside `path`, made owner-only there, then renamed into
    /// place: it is never reachable by others, and no process-wide `umask` is changed while
    /// other threads create files.
    static func listen(at path: String) throws -> Int32 {
        let folder = (path as NSString).deletingLastPathComponent
        var template = Array(((folder.isEmpty ? "." : folder) + "/.daq-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw Failure("cannot make a private folder to bind", path: path)
        }
        let scratch = String(cString: made)
        defer { rmdir(scratch) }
        let temporary = scratch + "/s"
        var addr = try address(temporary)
        _ = try address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("cannot create a socket for", path: path) }
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0, chmod(temporary, 0o600) == 0, rename(temporary, path) == 0, Glibc.listen(fd, 8) == 0
        else {
            let failure = Failure("cannot listen on", path: path)
            close(fd)
            unlink(temporary)
            throw failure
        }
        return fd
    }

    /// A connection to the socket at `path`.
    static func connect(to path: String) throws -> Int32 {
        var addr = try address(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure("cannot create a socket for", path: path) }
        let result = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let failure = Failure("cannot connect to", path: path)
            close(fd)
            throw failure
        }
        return fd
    }

    /// Writes all of `bytes`; `false` when the peer has gone. Never raises SIGPIPE.
    @discardableResult
    static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes {
                send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }
}

/// Reads newline-terminated lines from a blocking descriptor, at most `limit` bytes each.
final class SocketLineReader {
    private let fd: Int32
    private var lines: LineBuffer

    init(fd: Int32, limit: Int = 1 << 20) {
        self.fd = fd
        self.lines = LineBuffer(limit: limit)
    }

    /// The next line without its newline; `nil` at the end or on an error or an oversized line.
    func next() -> String? {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            switch lines.next() {
            case .line(let line): return line
            case .tooLong: return nil
            case .needMore: break
            }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            lines.append(chunk[..<n])
        }
    }
}
