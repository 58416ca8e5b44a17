/// Splits bytes that arrive in pieces (a socket's reads) into newline-terminated lines, holding
/// at most `limit` bytes of an unfinished one: a peer that never sends a newline fills no memory.
public struct LineBuffer: Sendable {
    private var bytes: [UInt8] = []
    /// Where the next line starts in `bytes`; consumed lines are dropped in bulk, not per line.
    private var start = 0
    /// The most bytes an unfinished line may hold.
    public let limit: Int

    /// What ``next()`` found.
    public enum Line: Equatable, Sendable {
        /// A whole line, without its newline, decoded as UTF-8 (invalid bytes replaced).
        case line(String)
        /// No whole line yet: append more.
        case needMore
        /// The unfinished line is past `limit`: the peer is not speaking the protocol.
        case tooLong
    }

    public init(limit: Int) { self.limit = limit }

    /// Adds bytes read from the peer.
    public mutating func append(_ more: some Collection<UInt8>) {
        if start > 0 && start >= bytes.count / 2 {
            bytes.removeSubrange(0..<start)
            start = 0
        }
        bytes.append(contentsOf: more)
    }

    /// The next whole line, or why there is none.
    public mutating func next() -> Line {
        if let nl = bytes[start...].firstIndex(of: 10) {
            let line = String(decoding: bytes[start..<nl], as: UTF8.self)
            start = nl + 1
            return .line(line)
        }
        return bytes.count - start > limit ? .tooLong : .needMore
    }
}
