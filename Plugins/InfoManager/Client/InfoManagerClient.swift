import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// Asks an Info Manager service for elements over HTTP or HTTPS (AsyncHTTPClient, TLS through
/// NIOSSL), retrying what a retry can fix.
///
/// # Thread safety
/// Immutable after `init`; AsyncHTTPClient's `HTTPClient` is thread-safe, so calls may overlap.
final class InfoManagerClient: Sendable {
    /// What the service said about an id.
    enum Answer: Sendable, Equatable {
        case element(ElementAnswer)
        /// 404: the service has no data for the id.
        case noData
    }

    /// Why an id (or the news) could not be read.
    struct Failure: Error, Sendable, CustomStringConvertible {
        enum Kind: Sendable { case unreachable, timeout, status, malformed, tooLarge }
        var kind: Kind
        var description: String
        /// Whether the service could not be reached at all (as opposed to answering badly).
        var isOutage: Bool { kind == .unreachable || kind == .timeout }
    }

    /// An element is a few hundred bytes; a body past this is a broken or hostile service.
    static let maxBodyBytes = 1 << 20

    private let http: HTTPClient
    private let base: String
    private let query: String
    private let inputType: InputType?
    private let token: String?
    private let timeout: TimeAmount
    private let retries: Int
    private let backoff: Double

    /// - Parameter inputType: Sent as `input_type` with every element request, and the type
    ///   every answer must have; `nil` for a client that only reads the news.
    init(
        baseURL: String, languages: [String], inputType: InputType?, token: String?, timeout: Double,
        retries: Int,
        backoff: Double, maxInFlight: Int
    ) {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(
            connect: .nanoseconds(Int64(timeout * 1e9)), read: .nanoseconds(Int64(timeout * 1e9)))
        configuration.connectionPool = .init(
            idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: maxInFlight)
        // A refused connection fails the attempt at once; `retries` decides what follows. The
        // pool's own retrying would hold each refused request until its timeout.
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.redirectConfiguration = .follow(max: 3, allowCycles: false)
        http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        query = "lang=" + PercentEncoding.component(languages.joined(separator: ","))
        self.inputType = inputType
        self.token = token
        self.timeout = .nanoseconds(Int64(timeout * 1e9))
        self.retries = retries
        self.backoff = backoff
    }

    /// The URL asked for `id`: the id is one path segment, so `/`, `?`, spaces and non-ASCII
    /// are percent-encoded.
    func url(for id: String) -> String {
        "\(base)/v1/elements/\(PercentEncoding.component(id))?\(query)"
            + (inputType.map { "&input_type=\($0.rawValue)" } ?? "")
    }

    /// Looks `id` up, retrying outages, 5xx and 429 with exponential backoff and jitter;
    /// `completion` is called once, on an event-loop thread.
    ///
    /// Built on AsyncHTTPClient's event-loop API rather than `async`/`await`: the engine runs on
    /// Dispatch queues, and a lookup must not wait for a thread of Swift's cooperative pool,
    /// which a host (a test runner, an app) may keep busy.
    func element(_ id: String, completion: @escaping @Sendable (Result<Answer, Failure>) -> Void) {
        attempt(
            url(for: id), number: 0, decode: { self.answer(id, status: $0, body: $1) },
            completion: completion)
    }

    /// Reads the news (`nil`: the service has none), retrying as ``element(_:completion:)`` does.
    func news(completion: @escaping @Sendable (Result<NewsAnswer?, Failure>) -> Void) {
        attempt(
            "\(base)/v1/news?\(query)", number: 0, decode: { Self.decodeNews(status: $0, body: $1) },
            completion: completion)
    }

    private func attempt<T: Sendable>(
        _ url: String, number: Int,
        decode: @escaping @Sendable (HTTPResponseStatus, ByteBuffer) -> Result<T, Failure>,
        completion: @escaping @Sendable (Result<T, Failure>) -> Void
    ) {
        once(url).whenComplete { [self] outcome in
            let result: Result<T, Failure>
            switch outcome {
            case .success(let (status, body)): result = decode(status, body)
            case .failure(let error): result = .failure(classify(error))
            }
            guard case .failure(let failure) = result, number < retries, Self.isRetryable(failure) else {
                return completion(result)
            }
            // Equal jitter: half the doubled delay fixed, half random, so clients that failed
            // together do not come back together.
            let delay = backoff * Double(1 << min(number, 16))
            let wait = delay / 2 + Double.random(in: 0...(delay / 2))
            http.eventLoopGroup.next().scheduleTask(in: .nanoseconds(Int64(wait * 1e9))) {
                self.attempt(url, number: number + 1, decode: decode, completion: completion)
            }
        }
    }

    private static func isRetryable(_ failure: Failure) -> Bool {
        switch failure.kind {
        case .unreachable, .timeout: return true
        case .status:
            return failure.description.hasPrefix("HTTP 5") || failure.description.hasPrefix("HTTP 429")
        case .malformed, .tooLarge: return false
        }
    }

    private func once(_ url: String) -> EventLoopFuture<BoundedBody.Response> {
        let request: HTTPClient.Request
        do {
            var headers = HTTPHeaders([("Accept", "application/json")])
            if let token { headers.add(name: "Authorization", value: "Bearer \(token)") }
            request = try HTTPClient.Request(url: url, method: .GET, headers: headers)
        } catch {
            return http.eventLoopGroup.next().makeFailedFuture(error)
        }
        return http.execute(
            request: request, delegate: BoundedBody(limit: Self.maxBodyBytes), deadline: .now() + timeout
        ).futureResult
    }

    private func answer(_ id: String, status: HTTPResponseStatus, body: ByteBuffer) -> Result<
        Answer, Failure
    > {
        if status == .notFound { return .success(.noData) }
        guard status == .ok else { return .failure(Self.statusFailure(status)) }
        do {
            let answer = try JSONDecoder().decode(ElementAnswer.self, from: Data(body.readableBytesView))
            guard answer.id == id else {
                return .failure(
                    Failure(
                        kind: .malformed, description: "the service answered for id '\(answer.id)', not '\(id)'"
                    ))
            }
            if let inputType, answer.inputType != inputType {
                return .failure(
                    Failure(
                        kind: .malformed,
                        description:
                            "the service answered '\(id)' with input_type \(answer.inputType.rawValue), not \(inputType.rawValue)"
                    ))
            }
            return .success(.element(answer))
        } catch {
            return .failure(
                Failure(
                    kind: .malformed,
                    description: "the service's answer is not an element: \(Self.describe(error))"))
        }
    }

    private static func decodeNews(status: HTTPResponseStatus, body: ByteBuffer) -> Result<
        NewsAnswer?, Failure
    > {
        if status == .notFound { return .success(nil) }
        guard status == .ok else { return .failure(statusFailure(status)) }
        do {
            return .success(try JSONDecoder().decode(NewsAnswer.self, from: Data(body.readableBytesView)))
        } catch {
            return .failure(
                Failure(
                    kind: .malformed, description: "the service's answer is not news: \(describe(error))"))
        }
    }

    private static func statusFailure(_ status: HTTPResponseStatus) -> Failure {
        Failure(kind: .status, description: "HTTP \(status.code) \(status.reasonPhrase)")
    }

    private func classify(_ error: any Error) -> Failure {
        if error is BoundedBody.TooLarge {
            return Failure(
                kind: .tooLarge,
                description: "the service sent more than \(Self.maxBodyBytes) bytes for one element")
        }
        if let e = error as? HTTPClientError,
            e == .deadlineExceeded || e == .readTimeout || e == .connectTimeout
        {
            return Failure(
                kind: .timeout,
                description: "no answer from \(base) within \(Double(timeout.nanoseconds) / 1e9) s")
        }
        let text = "\(error)"
        // NIO's description of a refused connect is long and technical; the user needs the fact.
        let reason =
            text.contains("Connection refused") ? "connection refused (is the service running?)" : text
        return Failure(kind: .unreachable, description: "cannot reach \(base): \(reason)")
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): return "missing '\(key.stringValue)'"
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
            let path = c.codingPath.map(\.stringValue).joined(separator: ".")
            return path.isEmpty ? "not JSON" : "bad '\(path)'"
        default: return "\(error)"
        }
    }

    /// Closes the connections; called once the stage is done with the client.
    func shutdown() {
        try? http.syncShutdown()
    }

    /// Closes the connections, for `async` callers.
    func shutdown() async {
        try? await http.shutdown()
    }

    /// Closes the connections without waiting, from any thread: for a stage that failed and so
    /// never finished, whose client would otherwise be released still running.
    func shutdownInBackground() {
        http.shutdown { _ in }
    }
}

/// Percent-encoding of one URL path segment or query value.
enum PercentEncoding {
    /// `text` with every byte outside RFC 3986's unreserved set written as `%XX`.
    static func component(_ text: String) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"),
                UInt8(ascii: "~"):
                out.append(b)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hex[Int(b >> 4)])
                out.append(hex[Int(b & 15)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
