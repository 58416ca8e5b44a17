import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// HTTP/1.1 over a plain socket to 127.0.0.1, one request per connection: what a test needs
/// to ask the view for something, or to open its event stream and never read it.
enum LoopbackHTTP {
    /// Connects to 127.0.0.1:`port`; `receiveBuffer` shrinks the socket's receive buffer first,
    /// as a client that reads little would have.
    static func connect(port: Int, receiveBuffer: Int32? = nil) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BrowserError("socket: \(errno)") }
        if var size = receiveBuffer {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw BrowserError("connect to 127.0.0.1:\(port): \(errno)")
        }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    /// Sends a request head (and `Connection: close`).
    static func send(_ fd: Int32, _ method: String, _ path: String, headers: [String: String] = [:]) {
        var text = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: 0\r\n"
        for (k, v) in headers { text += "\(k): \(v)\r\n" }
        text += "\r\n"
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress!, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// One request; the status and the body (read until the server closes).
    static func request(
        port: Int, _ method: String, _ path: String, headers: [String: String] = [:]
    ) throws -> (status: Int, body: String) {
        let fd = try connect(port: port)
        defer { close(fd) }
        send(fd, method, path, headers: headers)
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { break }
            response += chunk[..<n]
        }
        let text = String(decoding: response, as: UTF8.self)
        let status = text.split(separator: " ", maxSplits: 2).dropFirst().first.flatMap { Int($0) } ?? 0
        let body = text.range(of: "\r\n\r\n").map { String(text[$0.upperBound...]) } ?? ""
        return (status, body)
    }

    /// The first `bytes` of the response to a request, for a stream that does not end.
    static func head(port: Int, _ path: String, bytes: Int = 512) throws -> String {
        let fd = try connect(port: port)
        defer { close(fd) }
        send(fd, "GET", path)
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while response.count < bytes {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, $0.count, 0) }
            if n <= 0 { break }
            response += chunk[..<n]
        }
        return String(decoding: response, as: UTF8.self)
    }
}
