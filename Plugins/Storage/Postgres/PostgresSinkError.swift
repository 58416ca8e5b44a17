import DAQCore
import PostgresNIO

/// A `postgres` sink failure as the user reads it: what was being done, where (without any
/// credential), and the server's own words with its SQLSTATE.
///
/// postgres-nio's errors print a generic text on purpose (so a log never carries query data);
/// this takes the server's message and code out of them instead.
public struct PostgresSinkError: Error, CustomStringConvertible, Sendable {
    /// The message the user sees.
    public var description: String
    /// The server's SQLSTATE, when the server answered.
    public var sqlState: String?
    /// Whether the server or the link went away (worth retrying), as opposed to the server
    /// refusing what was sent (not worth it).
    var isConnectionLoss: Bool

    init(_ description: String, sqlState: String? = nil, isConnectionLoss: Bool = false) {
        self.description = description
        self.sqlState = sqlState
        self.isConnectionLoss = isConnectionLoss
    }

    /// Describes `error`, thrown while `doing` something with the server at `target`.
    init(_ error: any Error, doing: String, target: PostgresTarget) {
        let place = "PostgreSQL at \(target.display) as \(target.user)"
        guard let e = error as? PSQLError else {
            self.init("\(doing) \(place): \(error)", isConnectionLoss: true)
            return
        }
        if let info = e.serverInfo {
            let state = info[.sqlState]
            let message = info[.message] ?? "error"
            let detail = info[.detail].map { " (\($0))" } ?? ""
            // Class 08 (connection), 57 (operator intervention: shutdown), 53 (resources).
            let loss = state.map { $0.hasPrefix("08") || $0.hasPrefix("57") || $0.hasPrefix("53") } ?? false
            let hint = Self.hint(state: state, target: target)
            self.init(
                "\(doing) \(place): \(message)\(detail) [SQLSTATE \(state ?? "?")]\(hint)", sqlState: state,
                isConnectionLoss: loss)
            return
        }
        switch e.code {
        case .authMechanismRequiresPassword:
            self.init("\(doing) \(place): the server asks for a password; name its variable in `password_env`")
        case .unsupportedAuthMechanism, .saslError:
            self.init("\(doing) \(place): authentication failed (\(e.code))")
        case .sslUnsupported:
            self.init("\(doing) \(place): the server does not offer TLS, which sslmode=require asks for")
        default:
            let cause = e.underlying.map { "\($0)" } ?? "\(e.code)"
            self.init("\(doing) \(place): \(cause)", isConnectionLoss: true)
        }
    }

    private static func hint(state: String?, target: PostgresTarget) -> String {
        switch state {
        case "28P01": "; check the user and the password in the variable `password_env` names"
        case "3D000": "; create it (createdb \(target.database)) or name another in `url`"
        case "28000": "; the server's pg_hba.conf lets no such connection in"
        default: ""
        }
    }
}
