import Foundation

/// Where the live view listens: `[HOST:]PORT`, as `daq run --view` and `daq view --listen` take it.
///
/// A bare port binds `127.0.0.1`: the page can pause and stop a run, so it is offered to other
/// machines only when asked, and then only with a token (``ViewAccess``).
struct ViewListen: Sendable, Equatable {
    var host: String
    var port: Int

    /// Reads `8080`, `0.0.0.0:8080`, `localhost:0` or `[::1]:8080`.
    /// - Throws: a message naming what is wrong, for a usage error.
    static func parse(_ text: String) throws -> ViewListen {
        var host = "127.0.0.1"
        var portText = Substring(text)
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { throw ViewListenError(text) }
            portText = rest.dropFirst()
        } else if let colon = text.lastIndex(of: ":") {
            host = String(text[..<colon])
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, let port = Int(portText), (0...65535).contains(port) else { throw ViewListenError(text) }
        return ViewListen(host: host, port: port)
    }

    /// Whether only this machine can reach the address.
    var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// The host as a URL writes it (IPv6 in brackets).
    var urlHost: String { host.contains(":") ? "[\(host)]" : host }
}

/// A `--view` value that is not `[HOST:]PORT`.
struct ViewListenError: Error, CustomStringConvertible {
    var text: String
    init(_ text: String) { self.text = text }
    var description: String {
        "expected [HOST:]PORT such as 8080, 127.0.0.1:0 or 0.0.0.0:8080 (port 0 to 65535); found '\(text)'"
    }
}
