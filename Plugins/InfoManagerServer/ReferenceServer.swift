import DAQCore
import DAQInfoManager
import Foundation
import Hummingbird
import Logging
import Synchronization

/// The reference Info Manager service: answers `GET /v1/elements/{id}` and `GET /v1/news`
/// (`docs/infomanager-openapi.yaml`) from an elements file, which it reads again on
/// ``reload()`` (SIGHUP in `daq resolver serve`).
///
/// # Thread safety
/// The elements sit behind a `Mutex`; a reload swaps them whole, so a request sees the old file
/// or the new one, never half of each.
public final class ReferenceServer: Sendable {
    /// The elements file.
    public let path: String
    private let token: String?
    private let data: Mutex<ElementFile>
    /// How long a connection may sit without a request (or with half of one) before it is closed.
    public let idleTimeout: Duration

    /// Reads the elements file.
    /// - Parameters:
    ///   - path: The YAML or JSON elements file.
    ///   - token: When set, every request must carry `Authorization: Bearer <token>`.
    ///   - idleTimeout: How long a connection may be idle, or half-sent, before it is closed:
    ///     a client that opens connections and sends nothing does not hold them for long.
    /// - Throws: ``ConfigError`` with every problem of the file.
    public init(path: String, token: String? = nil, idleTimeout: Duration = .seconds(15)) throws(ConfigError) {
        self.path = path
        self.token = token
        self.idleTimeout = idleTimeout
        data = Mutex(try ElementFile(path: path))
    }

    /// The number of elements served now.
    public var elementCount: Int { data.withLock { $0.elements.count } }

    /// Reads the file again and serves it; a file with problems is reported and the old one stays.
    /// - Returns: The number of elements now served.
    /// - Throws: ``ConfigError`` with every problem of the new file.
    @discardableResult
    public func reload() throws(ConfigError) -> Int {
        let file = try ElementFile(path: path)
        data.withLock { $0 = file }
        return file.elements.count
    }

    /// Serves on `host:port` until the calling task is cancelled; `port` 0 takes a free port.
    /// - Parameter onRunning: Called with the port once the server listens.
    /// - Parameter logger: Where the server logs; a test runner passes a quiet one.
    public func run(
        host: String, port: Int, logger: Logger? = nil,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        try await application(host: host, port: port, logger: logger, onRunning: onRunning).run()
    }

    /// Serves on `host:port` until SIGTERM or SIGINT, then lets the requests in progress finish
    /// and returns: a stop is not an error (cancelling ``run(host:port:logger:onRunning:)``
    /// makes the HTTP server log one).
    /// - Parameter onRunning: Called with the port once the server listens.
    /// - Parameter logger: Where the server logs.
    public func serveUntilSignalled(
        host: String, port: Int, logger: Logger? = nil,
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        try await application(host: host, port: port, logger: logger, onRunning: onRunning).runService()
    }

    private func application(
        host: String, port: Int, logger: Logger?, onRunning: @escaping @Sendable (Int) async -> Void
    ) -> some ApplicationProtocol {
        let routes = router().buildResponder()
        // Any method but GET on a path the service has is 405 with `Allow`, as RFC 9110 asks,
        // not the router's 404: methods it has never heard of (QUERY) included.
        let responder = CallbackResponder<BasicRequestContext> { request, context in
            guard request.method != .get, Self.serves(request.uri.path) else {
                return try await routes.respond(to: request, context: context)
            }
            var response = Self.json(.methodNotAllowed, ["error": "only GET is allowed here"])
            response.headers[.allow] = "GET"
            return response
        }
        let (seconds, attoseconds) = idleTimeout.components
        let idleMilliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        return Application(
            responder: responder,
            server: .http1(configuration: .init(idleTimeout: .milliseconds(idleMilliseconds))),
            configuration: .init(address: .hostname(host, port: port), serverName: "daq-resolver"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/v1/elements/:id") { [self] request, context -> Response in
            if let denied = self.deny(request, logger: context.logger) { return denied }
            // The router hands the segment over still percent-encoded, so `/` in an id survives.
            guard let raw = context.parameters.get("id"), let id = raw.removingPercentEncoding else {
                return Self.json(.badRequest, ["error": "the id is not valid percent-encoded UTF-8"])
            }
            // Answers carry their element's own type; the client checks it against what it sent.
            if let type = request.uri.queryParameters.get("input_type"), InputType(rawValue: type) == nil {
                return Self.json(
                    .badRequest, ["error": "unknown input_type '\(type)'; expected beacon, barcode or nfc"])
            }
            let languages = LanguagePriority.parse(request.uri.queryParameters.get("lang"))
            guard let answer = self.data.withLock({ $0.answer(id: id, languages: languages) }) else {
                return Self.json(.notFound, ["error": "no element with id '\(id)'"])
            }
            return Self.json(.ok, answer)
        }
        router.get("/v1/news") { [self] request, context -> Response in
            if let denied = self.deny(request, logger: context.logger) { return denied }
            let languages = LanguagePriority.parse(request.uri.queryParameters.get("lang"))
            guard let news = self.data.withLock({ $0.news(languages: languages) }) else {
                return Self.json(.notFound, ["error": "no news"])
            }
            return Self.json(.ok, news)
        }
        return router
    }

    /// Whether `path` (still percent-encoded) is one of the service's: `/v1/news` or
    /// `/v1/elements/{id}`.
    private static func serves(_ path: String) -> Bool {
        let prefix = "/v1/elements/"
        if path == "/v1/news" { return true }
        guard path.hasPrefix(prefix) else { return false }
        let id = path.dropFirst(prefix.count)
        return !id.isEmpty && !id.contains("/")
    }

    /// A 401 when a token is required and the request does not carry it; logged, without what
    /// the request carried. The comparison takes as long whatever matches: a client cannot find
    /// the token a byte at a time by timing the answers.
    private func deny(_ request: Request, logger: Logger) -> Response? {
        guard let token else { return nil }
        let sent = request.headers[.authorization] ?? ""
        if Self.sameBytes(Array(sent.utf8), Array("Bearer \(token)".utf8)) { return nil }
        logger.warning(
            "refused \(request.method) \(PrintableText.escaped(request.uri.path)): \(sent.isEmpty ? "no" : "a wrong") bearer token"
        )
        var response = Self.json(.unauthorized, ["error": "a bearer token is required"])
        response.headers[.wwwAuthenticate] = "Bearer"
        return response
    }

    /// Whether `a` and `b` are equal, in a time that depends on their lengths only.
    static func sameBytes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for i in 0..<max(a.count, b.count) {
            difference |= (i < a.count ? a[i] : 0) ^ (i < b.count ? b[i] : 0)
        }
        return difference == 0 && a.count == b.count
    }

    private static func json(_ status: HTTPResponse.Status, _ body: some Encodable) -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(body)) ?? Data("{}".utf8)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
