import Foundation

/// Who may use the live view: anyone who can reach a loopback address, or only those who
/// present its token.
///
/// The page can pause and stop a run, so a view reachable from other machines always takes a
/// token: the one given with `--view-token`, or one generated here and printed once. Every
/// request and the data stream without it are refused (401 when missing, 403 when wrong),
/// whatever address they come from.
enum ViewAccess: Sendable, Equatable {
    /// Loopback only: no token, but the `Host` header must name this machine, so that a web
    /// page elsewhere cannot reach the view through a rebound DNS name.
    case loopback
    /// The token every request must carry, as `?token=` or `Authorization: Bearer`.
    case token(String)

    /// The access `listen` gets with `token` given or not.
    static func choose(for listen: ViewListen, token: String?) -> ViewAccess {
        if let token, !token.isEmpty { return .token(token) }
        return listen.isLoopback ? .loopback : .token(generateToken())
    }

    /// 128 random bits as 32 hexadecimal digits.
    static func generateToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(format: "%08x", UInt32.random(in: .min ... .max, using: &generator)) }
            .joined()
    }

    /// What a request presents and what it gets.
    enum Verdict: Equatable {
        case allowed
        /// No token given: 401.
        case missing
        /// A wrong token, or a `Host` that is not this machine: 403.
        case refused
    }

    /// Judges a request by its token (from the query or header) and its `Host` header.
    func judge(token given: String?, host: String?) -> Verdict {
        switch self {
        case .loopback:
            guard let host else { return .refused }
            return Self.namesLoopback(host) ? .allowed : .refused
        case .token(let expected):
            guard let given else { return .missing }
            return Self.constantTimeEquals(given, expected) ? .allowed : .refused
        }
    }

    /// Compares every byte whatever differs first, so the time taken says nothing about the token.
    static func constantTimeEquals(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8)
        let y = Array(b.utf8)
        var difference = UInt8(truncatingIfNeeded: x.count ^ y.count) | (x.count == y.count ? 0 : 1)
        for i in 0..<max(x.count, y.count) {
            difference |= (i < x.count ? x[i] : 0) ^ (i < y.count ? y[i] : 0)
        }
        return difference == 0
    }

    /// Whether a `Host` header (with or without a port) names a loopback address.
    static func namesLoopback(_ host: String) -> Bool {
        var name = Substring(host)
        if name.hasPrefix("["), let close = name.firstIndex(of: "]") {
            name = name[name.index(after: name.startIndex)..<close]
        } else if let colon = name.lastIndex(of: ":") {
            name = name[..<colon]
        }
        return name == "localhost" || name == "::1" || name.hasPrefix("127.")
    }
}
