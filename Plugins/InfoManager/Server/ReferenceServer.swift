import DAQCore
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

    /// Reads the elements file.
    /// - Parameters:
    ///   - path: The YAML or JSON elements file.
    ///   - token: When set, every request must carry `Authorization: Bearer <token>`.
    /// - Throws: ``ConfigError`` with every problem of the file.
    public init(path: String, token: String? = nil) throws(ConfigError) {
        self.path = path
        self.token = token
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
        host: String, port: Int, logger: Logger? = nil, onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws {
        let app = Application(
            router: router(),
            configuration: .init(address: .hostname(host, port: port), serverName: "daq-resolver"),
            onServerRunning: { channel in await onRunning(channel.localAddress?.port ?? port) },
            logger: logger)
        try await app.run()
    }

    private func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/v1/elements/:id") { [self] request, context -> Response in
            if let denied = self.deny(request) { return denied }
            // The router hands the segment over still percent-encoded, so `/` in an id survives.
            guard let raw = context.parameters.get("id"), let id = raw.removingPercentEncoding else {
                return Self.json(.badRequest, ["error": "the id is not valid percent-encoded UTF-8"])
            }
            let languages = LanguagePriority.parse(request.uri.queryParameters.get("lang"))
            guard let answer = self.data.withLock({ $0.answer(id: id, languages: languages) }) else {
                return Self.json(.notFound, ["error": "no element with id '\(id)'"])
            }
            return Self.json(.ok, answer)
        }
        router.get("/v1/news") { [self] request, _ -> Response in
            if let denied = self.deny(request) { return denied }
            let languages = LanguagePriority.parse(request.uri.queryParameters.get("lang"))
            guard let news = self.data.withLock({ $0.news(languages: languages) }) else {
                return Self.json(.notFound, ["error": "no news"])
            }
            return Self.json(.ok, news)
        }
        return router
    }

    /// A 401 when a token is required and the request does not carry it.
    private func deny(_ request: Request) -> Response? {
        guard let token else { return nil }
        if request.headers[.authorization] == "Bearer \(token)" { return nil }
        var response = Self.json(.unauthorized, ["error": "a bearer token is required"])
        response.headers[.wwwAuthenticate] = "Bearer"
        return response
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
