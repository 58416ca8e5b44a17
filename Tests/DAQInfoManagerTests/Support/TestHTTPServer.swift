import DAQTesting
import Foundation
import Synchronization

/// A loopback HTTP/1.1 server on plain sockets and threads, for the services the reference
/// server will not imitate: slow, failing, malformed, oversized. Each connection has a thread;
/// requests on it are answered in turn (keep-alive) by `reply`.
///
/// Each descriptor has one owner that closes it once, after its last use: the listener is the
/// accepting thread's, a connection its serving thread's. ``stop()`` only shuts them down (any
/// number of times): a descriptor it closed could be another test's by the time its thread, or
/// a second `stop`, used it again.
final class TestHTTPServer: Sendable {
    enum Reply: Sendable {
        /// A response with a `Content-Length`.
        case respond(status: Int, body: [UInt8])
        /// A body of `bytes` bytes with no length, the connection closed after it.
        case stream(bytes: Int)
        /// Nothing: the request is left unanswered until the client gives up.
        case silent
    }

    let port: Int
    private let listener: Int32
    private let reply: @Sendable (_ path: String, _ number: Int) -> Reply
    private let state = Mutex(Connections())

    /// The requests seen and the connections open, for ``stop()`` to shut down.
    private struct Connections {
        enum Phase {
            case serving(clients: Set<Int32>)
            case stopped
        }
        var paths: [String] = []
        var phase = Phase.serving(clients: [])
    }

    /// The request paths received, in order.
    var paths: [String] { state.withLock { $0.paths } }

    init(reply: @escaping @Sendable (_ path: String, _ number: Int) -> Reply) throws {
        self.reply = reply
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        // A port of its own, never handed out again in this process: a pooled keep-alive
        // connection to a stopped server can never reach another test's server on its port.
        do {
            address.sin_port = UInt16(try LoopbackPort.reserve()).bigEndian
        } catch {
            close(listener)
            throw error
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { p -> Bool in
                bind(listener, p, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, p, &length) == 0
            }
        }
        guard bound else {
            close(listener)
            throw POSIXError(.EADDRNOTAVAIL)
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let server = self
        Thread { server.acceptLoop() }.start()
    }

    var url: String { "http://127.0.0.1:\(port)" }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 {
                if errno == EINTR || errno == ECONNABORTED { continue }
                // Shut down by `stop`: this thread alone uses the listener, so it closes it.
                close(listener)
                return
            }
            let serving = state.withLock { s -> Bool in
                guard case .serving(var clients) = s.phase else { return false }
                clients.insert(client)
                s.phase = .serving(clients: clients)
                return true
            }
            guard serving else {
                close(client)
                continue
            }
            Thread { self.serve(client) }.start()
        }
    }

    /// Forgets and closes a connection its thread is done with, under the lock `stop` shuts
    /// connections down under, so it never shuts down a number reused since.
    private func finish(_ client: Int32) {
        state.withLock { s in
            if case .serving(var clients) = s.phase {
                clients.remove(client)
                s.phase = .serving(clients: clients)
            }
            close(client)
        }
    }

    private func serve(_ client: Int32) {
        defer { finish(client) }
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(client, &buffer, buffer.count, 0)
            if n <= 0 { return }
            pending.append(contentsOf: buffer[0..<n])
            while let end = Self.headEnd(pending) {
                let head = String(decoding: pending[0..<end], as: UTF8.self)
                pending.removeFirst(end + 4)
                let path = head.split(separator: " ").dropFirst().first.map(String.init) ?? ""
                let number = state.withLock { s -> Int in
                    s.paths.append(path)
                    return s.paths.count
                }
                switch reply(path, number) {
                case .respond(let status, let body):
                    send(
                        client,
                        Array(
                            "HTTP/1.1 \(status) Test\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n"
                                .utf8) + body)
                case .stream(let bytes):
                    send(
                        client,
                        Array("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n".utf8))
                    let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16)
                    var sent = 0
                    while sent < bytes, send(client, Array(chunk.prefix(bytes - sent))) { sent += chunk.count }
                    shutdown(client, Int32(SHUT_RDWR))
                    return
                case .silent:
                    continue
                }
            }
        }
    }

    /// Writes all of `bytes`; `false` once the peer has gone (no SIGPIPE).
    @discardableResult
    private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes {
                Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
            }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    private static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 0...(bytes.count - 4)
        where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            return i
        }
        return nil
    }

    /// Shuts down the listener and every connection, which ends their threads, which close
    /// them. Safe to call more than once: only the first call does anything.
    func stop() {
        state.withLock { s in
            guard case .serving(let clients) = s.phase else { return }
            s.phase = .stopped
            shutdown(listener, Int32(SHUT_RDWR))
            for c in clients { shutdown(c, Int32(SHUT_RDWR)) }
        }
    }

    /// The JSON body of an element, as the reference server writes it.
    static func element(_ id: String, name: String = "Thing", language: String = "en") -> [UInt8] {
        let escaped = id.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return Array(#"{"id":"\#(escaped)","input_type":"barcode","language":"\#(language)","name":"\#(name)"}"#.utf8)
    }

    /// The id a request path asks for.
    static func id(of path: String) -> String {
        let segment = path.split(separator: "?").first.map(String.init) ?? path
        return (segment.split(separator: "/").last.map(String.init) ?? "").removingPercentEncoding ?? ""
    }
}
