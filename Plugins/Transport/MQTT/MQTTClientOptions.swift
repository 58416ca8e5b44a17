import DAQCore
import Glibc

/// Where a broker is and how to talk to it.
public struct MQTTClientOptions: Sendable {
    /// The broker's host name or address.
    public var host: String
    /// The broker's TCP port.
    public var port: Int
    /// TLS through NIOSSL (`mqtts://`).
    public var tls: Bool
    /// A PEM file of certificate authorities to trust instead of the system's; `nil` for the system's.
    public var caFile: String?
    /// A PEM certificate (chain) shown to a broker that asks for one, with ``keyFile``; `nil` for none.
    public var certFile: String?
    /// The PEM private key of ``certFile``.
    public var keyFile: String?
    /// The MQTT client id; unique per broker (a second connection with it replaces the first).
    public var clientID: String
    /// Seconds; the client sends PINGREQ when it has written nothing for this long.
    public var keepAlive: UInt16
    /// `false` asks the broker to keep the session (subscriptions, QoS 1 messages) across connections.
    public var cleanSession: Bool
    /// The user name sent in CONNECT.
    public var username: String?
    /// The password sent in CONNECT: from the environment, never from YAML.
    public var password: String?
    /// The first delay before reconnecting, doubled after each failed attempt up to ``maxReconnectDelay``.
    public var reconnectDelay: Double
    /// The longest delay between reconnect attempts.
    public var maxReconnectDelay: Double
    /// Seconds to wait for a TCP connection and CONNACK.
    public var connectTimeout: Double
    /// The largest packet taken from the broker, bytes of remaining length; a larger one ends
    /// the connection as a protocol error instead of growing memory to hold it.
    public var maxPacketSize = 16 * 1024 * 1024
    /// QoS 1 messages written but not yet acknowledged, at most.
    public var maxInflight: Int
    /// Payloads larger than this are written in pieces of this size, each reported as progress.
    public var progressChunk: Int

    /// Creates options with the defaults every field documents.
    public init(host: String, port: Int, tls: Bool = false, clientID: String) {
        self.host = host
        self.port = port
        self.tls = tls
        self.caFile = nil
        self.clientID = clientID
        self.keepAlive = 30
        self.cleanSession = true
        self.reconnectDelay = 0.1
        self.maxReconnectDelay = 10
        self.connectTimeout = 5
        self.maxInflight = 1000
        self.progressChunk = 64 * 1024
    }

    /// `host:port`, as messages name it.
    public var address: String { "\(host):\(port)" }

    /// Whether ``host`` is an IPv4 or IPv6 address rather than a name: TLS then sends no server
    /// name (SNI). Parsed, not guessed: `1password.example` is a name.
    public var hostIsAddress: Bool {
        var v4 = in_addr()
        var v6 = in6_addr()
        return inet_pton(AF_INET, host, &v4) == 1 || inet_pton(AF_INET6, host, &v6) == 1
    }

    /// Whether ``host`` is this machine (a loopback name or address), where nothing on the
    /// wire leaves it.
    public var hostIsLoopback: Bool {
        if host == "localhost" || host.hasSuffix(".localhost") || host == "::1" { return true }
        var v4 = in_addr()
        return inet_pton(AF_INET, host, &v4) == 1 && UInt32(bigEndian: v4.s_addr) >> 24 == 127
    }

    /// A warning when a password would cross the network in the clear (`mqtt://` to another
    /// machine), else `nil`.
    public var plainPasswordWarning: String? {
        guard !tls, password != nil, !hostIsLoopback else { return nil }
        return "the password goes to \(address) unencrypted (mqtt://): anyone on the way can read it; use mqtts://"
    }

    /// Parses `mqtt://host[:port]` or `mqtts://host[:port]` (default ports 1883 and 8883).
    /// - Returns: host, port and whether TLS is asked for, or `nil` with the reason.
    public static func parse(url: String) -> Result<(host: String, port: Int, tls: Bool), URLError> {
        let tls: Bool
        var rest: Substring
        if url.hasPrefix("mqtt://") {
            tls = false
            rest = url.dropFirst(7)
        } else if url.hasPrefix("mqtts://") {
            tls = true
            rest = url.dropFirst(8)
        } else {
            return .failure(
                URLError("expected mqtt://HOST[:PORT] or mqtts://HOST[:PORT], found '\(SecretText.url(url))'"))
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        guard !rest.isEmpty, !rest.contains("/"), !rest.contains("@") else {
            return .failure(
                URLError(
                    "expected mqtt://HOST[:PORT] (credentials go in `username` and `password_env`), found '\(SecretText.url(url))'"
                ))
        }
        var host = rest
        var port = tls ? 8883 : 1883
        if rest.hasPrefix("[") {
            // An IPv6 literal: [::1]:1883.
            guard let close = rest.firstIndex(of: "]") else {
                return .failure(URLError("unclosed '[' in '\(SecretText.url(url))'"))
            }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") {
                guard let p = Int(after.dropFirst()), (1...65535).contains(p) else {
                    return .failure(URLError("bad port in '\(SecretText.url(url))'"))
                }
                port = p
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let p = Int(rest[rest.index(after: colon)...]), (1...65535).contains(p) else {
                return .failure(URLError("bad port in '\(SecretText.url(url))'"))
            }
            port = p
        }
        return .success((String(host), port, tls))
    }

    /// A URL that cannot be used.
    public struct URLError: Error, CustomStringConvertible {
        /// The reason, as users read it.
        public var description: String
        init(_ d: String) { description = d }
    }
}
