#if canImport(Glibc)
    import Glibc
#endif

/// What waits to be written to a program's non-blocking stdin, and whether it is to be closed
/// once that is written.
struct PendingInput {
    private var bytes: [UInt8] = []
    private var offset = 0
    /// Set when the input is to be closed after what is queued.
    var closing = false

    /// What one ``write(to:)`` achieved.
    enum Outcome {
        /// Everything queued is written.
        case done
        /// The pipe is full: write again when it has room.
        case full
        /// The program closed its end (`EPIPE`); what was queued is dropped.
        case closedByProgram
        /// Another error, described.
        case failed(String)
    }

    var isEmpty: Bool { offset >= bytes.count }

    mutating func append(_ more: [UInt8]) {
        if offset > 0 && offset >= bytes.count / 2 {
            bytes.removeFirst(offset)
            offset = 0
        }
        bytes += more
    }

    /// Writes as much as `fd` takes without blocking.
    mutating func write(to fd: Int32) -> Outcome {
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { return .full }
            if n <= 0 {
                let error = errno
                bytes = []
                offset = 0
                if error == EPIPE { return .closedByProgram }
                return .failed(String(cString: strerror(error)))
            }
            offset += n
        }
        bytes.removeAll(keepingCapacity: true)
        offset = 0
        return .done
    }
}
