import DAQCore
import Foundation

/// Asks an Info Manager service for one element or for the news, without a pipeline: what
/// `daq resolve` and `daq resolver news` do, for programs.
///
/// ```swift
/// let service = try InfoManagerService(url: "http://127.0.0.1:8080", inputType: .barcode, languages: ["de", "en"])
/// let element = try await service.resolve("4006381333931")
/// print(element.state, element.answer?.name ?? "-")
/// await service.shutdown()
/// ```
///
/// Requests are retried as in a pipeline (unreachable, timeout, HTTP 5xx and 429, with backoff);
/// `input_type` is sent with every element request and an answer of another type is an error.
///
/// # Thread safety
/// Immutable after `init`; calls may overlap, from any thread. Call ``shutdown()`` when done.
public final class InfoManagerService: Sendable {
    /// The service's URL, such as `http://127.0.0.1:8080`.
    public let url: String
    /// The kind of id ``resolve(_:completion:)`` asks about.
    public let inputType: InputType
    private let client: InfoManagerClient

    /// Prepares the client; nothing is sent until the first call.
    /// - Parameters:
    ///   - url: An `http://` or `https://` URL without a query.
    ///   - inputType: Sent as `input_type`; answers must have the same type.
    ///   - languages: Language tags in priority order.
    ///   - token: A bearer token, for a service that requires one.
    ///   - timeout: Seconds allowed for one request.
    ///   - retries: Further attempts after a failed request.
    /// - Throws: ``InfoManagerError`` with code ``InfoManagerError/Code/badRequest`` when `url`
    ///   or a language is not valid.
    public init(
        url: String, inputType: InputType = .barcode, languages: [String] = ["en"],
        token: String? = nil,
        timeout: Double = 5, retries: Int = 2
    ) throws(InfoManagerError) {
        guard let parsed = URL(string: url), let scheme = parsed.scheme?.lowercased(),
            ["http", "https"].contains(scheme),
            parsed.host?.isEmpty == false, parsed.query == nil
        else {
            throw InfoManagerError(
                .badRequest,
                "expected an http:// or https:// URL without a query, such as http://127.0.0.1:8080, found '\(SecretText.url(url))'"
            )
        }
        for tag in languages where !ElementFileProblems.isLanguageTag(tag) {
            throw InfoManagerError(.badRequest, "'\(tag)' is not a language tag such as en, de or en-GB")
        }
        self.url = url
        self.inputType = inputType
        client = InfoManagerClient(
            baseURL: url, languages: languages, inputType: inputType, token: token, timeout: timeout,
            retries: retries,
            backoff: 0.1, maxInFlight: 8)
    }

    deinit {
        // A program that forgot ``shutdown()`` must not crash AsyncHTTPClient's debug check.
        client.shutdownInBackground()
    }

    /// Looks `id` up; `completion` is called once, on an event-loop thread. A barcode that is
    /// a GTIN (an EAN-13 as scanned) is asked for in its GTIN-14 form, as GS1 keys are stored,
    /// and the element carries that form as its `id`.
    /// - Parameter completion: The element with its state (``ResolveState/resolved`` or
    ///   ``ResolveState/noData``), or why the service gave no answer.
    public func resolve(
        _ given: String,
        completion: @escaping @Sendable (Result<ResolvedElement, InfoManagerError>) -> Void
    ) {
        let inputType = self.inputType
        let id = inputType == .barcode ? BarcodeKey.matched(given) : given
        client.element(id) { result in
            switch result {
            case .success(.element(let answer)):
                completion(
                    .success(ResolvedElement(id: id, inputType: inputType, state: .resolved, answer: answer)))
            case .success(.noData):
                completion(
                    .success(ResolvedElement(id: id, inputType: inputType, state: .noData, answer: nil)))
            case .failure(let failure):
                completion(.failure(InfoManagerError(failure, id: id)))
            }
        }
    }

    /// Looks `id` up.
    /// - Returns: The element with its state (``ResolveState/resolved`` or ``ResolveState/noData``).
    /// - Throws: ``InfoManagerError`` when the service could not be reached or answered badly.
    public func resolve(_ id: String) async throws(InfoManagerError) -> ResolvedElement {
        try await withCheckedContinuation { continuation in
            resolve(id) { continuation.resume(returning: $0) }
        }.get()
    }

    /// Reads the news; `completion` is called once, on an event-loop thread, with `nil` when
    /// the service has none.
    public func news(completion: @escaping @Sendable (Result<NewsAnswer?, InfoManagerError>) -> Void) {
        client.news { result in completion(result.mapError { InfoManagerError($0, id: nil) }) }
    }

    /// Reads the news.
    /// - Returns: Every item, each in the first of the languages it has; `nil` when there is none.
    /// - Throws: ``InfoManagerError`` when the service could not be reached or answered badly.
    public func news() async throws(InfoManagerError) -> NewsAnswer? {
        try await withCheckedContinuation { continuation in news { continuation.resume(returning: $0) }
        }.get()
    }

    /// Closes the connections.
    public func shutdown() async {
        await client.shutdown()
    }
}

/// An id and what the service said about it.
public struct ResolvedElement: Sendable, Equatable {
    public var id: String
    public var inputType: InputType
    /// ``ResolveState/resolved`` with an answer, ``ResolveState/noData`` without one.
    public var state: ResolveState
    public var answer: ElementAnswer?

    public init(id: String, inputType: InputType, state: ResolveState, answer: ElementAnswer?) {
        self.id = id
        self.inputType = inputType
        self.state = state
        self.answer = answer
    }
}

/// Why ``InfoManagerService`` got no answer.
public struct InfoManagerError: Error, Sendable, CustomStringConvertible {
    /// What kind of failure it was; `daq resolve` exits with a status per code.
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String { case badRequest, unreachable, timeout, badAnswer }
        private let base: Base

        /// The URL or a language given was not valid; nothing was sent.
        public static let badRequest = Code(base: .badRequest)
        /// The service could not be reached (refused, unknown host, TLS).
        public static let unreachable = Code(base: .unreachable)
        /// The service did not answer within the timeout.
        public static let timeout = Code(base: .timeout)
        /// The service answered with an error status, or with something that is not the answer
        /// asked for (not JSON, another id, another `input_type`, too large).
        public static let badAnswer = Code(base: .badAnswer)

        public var description: String { base.rawValue }
    }

    public var code: Code
    /// The id asked about, when it was an element.
    public var id: String?
    public var message: String
    public var description: String { id.map { "'\($0)': \(message)" } ?? message }

    init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    init(_ failure: InfoManagerClient.Failure, id: String?) {
        switch failure.kind {
        case .unreachable: code = .unreachable
        case .timeout: code = .timeout
        case .status, .malformed, .tooLarge: code = .badAnswer
        }
        self.id = id
        message = failure.description
    }
}
