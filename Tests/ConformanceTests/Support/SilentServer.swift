import DAQTesting
import Foundation

/// A loopback TCP port that takes connections and never answers: the kernel completes each
/// handshake into the listen backlog and nobody ever accepts or reads. A client waiting on it
/// waits on real I/O for as long as the test wants, with nothing timed.
final class SilentServer: @unchecked Sendable {
    // @unchecked: `fd` is set once in `init` and closed once in `deinit`.
    let port: Int
    private let fd: Int32

    init() throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) }
        }
        guard bound == 0, listen(fd, 256) == 0 else {
            close(fd)
            throw CocoaError(.fileWriteUnknown)
        }
        _ = withUnsafeMutablePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) }
        }
        port = Int(UInt16(bigEndian: addr.sin_port))
        self.fd = fd
    }

    deinit { close(fd) }

    /// A loopback port nobody listens on, so a connect is refused; outside the ephemeral range,
    /// so no other test's connection takes it meanwhile.
    static func refusedPort() -> Int {
        try! LoopbackPort.reserve()
    }
}
