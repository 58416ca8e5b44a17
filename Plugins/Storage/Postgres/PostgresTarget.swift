import DAQCore

/// Where a `postgres` sink connects: parsed from `url` once, so every message can name the
/// server without its credentials.
///
/// `postgres://USER@HOST[:PORT]/DATABASE` over TCP (PORT 5432), or over a Unix socket with the
/// socket's directory in a `host` query item, as libpq takes it:
/// `postgres://USER@/DATABASE?host=/run/postgresql` (the socket is `DIR/.s.PGSQL.PORT`).
/// `sslmode=disable|prefer|require` chooses TLS over TCP (`prefer` when unset). A password in the
/// URL is refused: it goes in the variable `password_env` names.
struct PostgresTarget: Equatable, Sendable {
    /// How the connection is made.
    enum Endpoint: Equatable, Sendable {
        case tcp(host: String, port: Int)
        case unixSocket(path: String)
    }

    /// TLS over TCP, as libpq's `sslmode` names it.
    enum TLSMode: String, Equatable, Sendable {
        case disable, prefer, require
    }

    var endpoint: Endpoint
    var user: String
    var database: String
    var tls: TLSMode

    /// `host:port/database` or `socket/database`: how messages name the server.
    var display: String {
        switch endpoint {
        case .tcp(let host, let port):
            let h = host.contains(":") ? "[\(host)]" : host
            return "\(h):\(port)/\(database)"
        case .unixSocket(let path): return "\(path)/\(database)"
        }
    }

    /// Parses `url`; a failure says what is wrong without echoing a credential.
    static func parse(_ url: String) -> Result<PostgresTarget, ConfigIssueText> {
        let shown = SecretText.url(url)
        guard let schemeEnd = url.range(of: "://"),
            ["postgres", "postgresql"].contains(url[..<schemeEnd.lowerBound].lowercased())
        else {
            return .failure(.init("expected postgres://USER@HOST[:PORT]/DATABASE, found '\(shown)'"))
        }
        var rest = Substring(url[schemeEnd.upperBound...])
        var query: [String: String] = [:]
        if let q = rest.firstIndex(of: "?") {
            for item in rest[rest.index(after: q)...].split(separator: "&") {
                let pair = item.split(separator: "=", maxSplits: 1)
                query[String(pair[0])] = pair.count > 1 ? PercentDecoding.decode(String(pair[1])) : ""
            }
            rest = rest[..<q]
        }
        let slash = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<slash]
        let path = rest[slash...].drop { $0 == "/" }
        guard let at = authority.lastIndex(of: "@") else {
            return .failure(.init("'\(shown)' names no user: postgres://USER@HOST/DATABASE"))
        }
        let userInfo = authority[..<at]
        authority = authority[authority.index(after: at)...]
        if userInfo.contains(":") {
            return .failure(
                .init("'\(shown)' carries a password: put it in the variable `password_env` names, not in the URL"))
        }
        let user = PercentDecoding.decode(String(userInfo))
        guard !user.isEmpty else { return .failure(.init("'\(shown)' names no user")) }
        var host = String(authority)
        var port = 5432
        if let close = host.lastIndex(of: "]"), host.hasPrefix("[") {
            let inner = String(host[host.index(after: host.startIndex)..<close])
            let after = host[host.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = Int(after.dropFirst()) else { return .failure(.init("bad port in '\(shown)'")) }
                port = p
            }
            host = inner
        } else if let colon = host.lastIndex(of: ":") {
            guard let p = Int(host[host.index(after: colon)...]) else {
                return .failure(.init("bad port in '\(shown)'"))
            }
            port = p
            host = String(host[..<colon])
        }
        if let p = query.removeValue(forKey: "port") {
            guard let n = Int(p) else { return .failure(.init("bad port in '\(shown)'")) }
            port = n
        }
        guard (1...65535).contains(port) else { return .failure(.init("port \(port) is not 1 to 65535")) }
        if let h = query.removeValue(forKey: "host"), !h.isEmpty { host = h }
        let database = path.isEmpty ? user : PercentDecoding.decode(String(path))
        var tls = TLSMode.prefer
        if let mode = query.removeValue(forKey: "sslmode") {
            guard let m = TLSMode(rawValue: mode) else {
                return .failure(.init("sslmode must be disable, prefer or require, found '\(mode)'"))
            }
            tls = m
        }
        if let unknown = query.keys.sorted().first {
            return .failure(.init("unknown query item '\(unknown)' in '\(shown)' (host, port, sslmode)"))
        }
        guard !host.isEmpty else {
            return .failure(.init("'\(shown)' names no host: postgres://USER@HOST/DATABASE or ?host=/socket/dir"))
        }
        let endpoint: Endpoint =
            host.hasPrefix("/") ? .unixSocket(path: host + "/.s.PGSQL.\(port)") : .tcp(host: host, port: port)
        return .success(PostgresTarget(endpoint: endpoint, user: user, database: database, tls: tls))
    }
}

/// The text of a configuration problem, before it is tied to a key.
struct ConfigIssueText: Error, Equatable {
    var text: String
    init(_ text: String) { self.text = text }
}

/// `%XX` escapes of a URL's parts, decoded; a malformed escape stays as written.
enum PercentDecoding {
    static func decode(_ s: String) -> String {
        guard s.contains("%") else { return s }
        var out: [UInt8] = []
        var bytes = Array(s.utf8)[...]
        while let b = bytes.popFirst() {
            if b == UInt8(ascii: "%"), bytes.count >= 2,
                let v = UInt8(String(decoding: bytes.prefix(2), as: UTF8.self), radix: 16)
            {
                out.append(v)
                bytes = bytes.dropFirst(2)
            } else {
                out.append(b)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
