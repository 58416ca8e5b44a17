import Foundation
import Synchronization

/// Loopback ports for servers a test starts, stops and starts again on the same port (a broker
/// restarted mid-stream): each is handed out once per process, from below the kernel's
/// ephemeral range, so neither another test's server nor an outgoing connection's local port
/// takes it while the server is down.
///
/// Binding port 0 gives a free port from the ephemeral range, which any `connect` may take as
/// its local port the moment the server stops; with tests in parallel, one did.
public enum LoopbackPort {
    /// Ports below Linux's default `ip_local_port_range` (32768–60999) and above the registered
    /// services most machines run.
    static let range = 20_000..<32_768
    /// The next candidate's offset in ``range``; starts at a place given by the process id, so
    /// two test processes at once start far apart.
    private static let next = Atomic(Int(getpid()) &* 7_919 % range.count)

    /// A port no listener holds now and this process has not handed out before.
    /// - Throws: ``Mosquitto/BrokerError`` when every port of the range is taken.
    public static func reserve() throws -> Int {
        for _ in 0..<range.count {
            let offset = next.add(1, ordering: .relaxed).oldValue % range.count
            let port = range.lowerBound + offset
            if isFree(port) { return port }
        }
        throw Mosquitto.BrokerError(description: "no free loopback port in \(range)")
    }

    /// Whether a listener could bind `port` on 127.0.0.1 now.
    public static func isFree(_ port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var addr = address(port)
        return withUnsafePointer(to: &addr) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        } == 0
    }

    /// 127.0.0.1:`port` as the socket calls take it.
    static func address(_ port: Int) -> sockaddr_in {
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = UInt16(port).bigEndian
        return addr
    }
}
