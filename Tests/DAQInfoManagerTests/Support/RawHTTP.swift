import Foundation

/// One HTTP/1.1 request written byte for byte on a loopback socket: HTTP clients repair a
/// malformed target (`%ZZ` becomes `%25ZZ`) before sending it, and the tests need it as it is.
enum RawHTTP {
    struct Response {
        var status: Int
        var headers: [String: String]
        var body: String
    }

    /// Sends `GET target` to `url`'s port and reads the answer until the server closes.
    static func get(_ url: String, _ target: String) throws -> Response {
        let port = UInt16(url.split(separator: ":").last.map(String.init) ?? "") ?? 0
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = port.bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else { throw POSIXError(.ECONNREFUSED) }
        let request = Array(
            "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        var offset = 0
        while offset < request.count {
            let n = request[offset...].withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { break }  // the server may refuse an over-long request before reading it all
            offset += n
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while case let n = recv(fd, &buffer, buffer.count, 0), n > 0 {
            received.append(contentsOf: buffer[0..<n])
        }
        let text = String(decoding: received, as: UTF8.self)
        let parts = text.components(separatedBy: "\r\n\r\n")
        let head = parts[0].components(separatedBy: "\r\n")
        let status = head.first.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") } ?? 0
        var headers: [String: String] = [:]
        for line in head.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(
                in: .whitespaces)
        }
        return Response(
            status: status, headers: headers, body: parts.dropFirst().joined(separator: "\r\n\r\n"))
    }
}
