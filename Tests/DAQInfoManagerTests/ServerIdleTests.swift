import Foundation
import Testing

/// `daq resolver serve` under clients that connect and send nothing, or half a request: each
/// such connection is closed after the idle timeout, and the server goes on answering.
@Suite("resolver idle connections")
struct ServerIdleTests {
    /// A TCP connection to 127.0.0.1:`port` that has sent `text`.
    static func connection(port: UInt16, sending text: String) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(fd >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        let bytes = Array(text.utf8)
        if !bytes.isEmpty { _ = send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) }
        return fd
    }

    @Test func threeHundredIdleConnectionsAreReleasedByTheTimeout() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(in: dir, arguments: ["--idle-timeout", "1"])
        defer { server.stop() }
        let port = try #require(url.split(separator: ":").last.flatMap { UInt16($0) })
        var open: Set<Int32> = []
        defer { for fd in open { close(fd) } }
        for i in 0..<300 {
            open.insert(
                try Self.connection(port: port, sending: i % 2 == 0 ? "" : "GET /v1/news HTTP/1.1\r\nHost: x\r\n"))
        }
        // Each is released when the server closes it: the read sees the end. A bounded wait.
        let deadline = Date(timeIntervalSinceNow: 60)
        while !open.isEmpty && Date() < deadline {
            var fds = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            _ = poll(&fds, nfds_t(fds.count), 1000)
            for p in fds where p.revents != 0 {
                var byte: UInt8 = 0
                let n = recv(p.fd, &byte, 1, Int32(MSG_DONTWAIT))
                if n == 0 || (n < 0 && errno != EAGAIN && errno != EWOULDBLOCK) {
                    close(p.fd)
                    open.remove(p.fd)
                }
            }
        }
        #expect(open.isEmpty, "\(open.count) of 300 idle connections still open after 60 s")
        #expect(try ReferenceServerTests.get(url + "/v1/news").0 == 200)
    }

    @Test func aRefusedRequestIsLoggedWithoutTheToken() throws {
        let dir = try ResolverFixtures.scratch()
        let (server, url) = try ResolverFixtures.referenceServer(
            in: dir, arguments: ["--token-env", "IM_TOKEN"], environment: ["IM_TOKEN": "s3cret-t0ken"])
        #expect(try ReferenceServerTests.get(url + "/v1/news", token: "s3cret-t0kem").0 == 401)
        #expect(try ReferenceServerTests.get(url + "/v1/news", token: "s3cret-t0ken").0 == 200)
        server.stop()
        let log = server.errorOutput
        #expect(log.contains("refused GET /v1/news: a wrong bearer token"), "\(log)")
        #expect(!log.contains("s3cret"), "\(log)")
    }
}
