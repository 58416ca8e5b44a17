import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Collects a response's status and body, failing the request as soon as the body grows past
/// `limit`: a broken service sending megabytes costs a few reads, not the memory.
///
/// # Thread safety
/// AsyncHTTPClient calls a delegate on the request's event loop, one call at a time; that
/// serial use is what makes the `@unchecked Sendable` conformance safe.
final class BoundedBody: HTTPClientResponseDelegate, @unchecked Sendable {
    typealias Response = (HTTPResponseStatus, ByteBuffer)

    /// The body was larger than the limit.
    struct TooLarge: Error {}

    private let limit: Int
    private var status = HTTPResponseStatus.ok
    private var body = ByteBuffer()

    init(limit: Int) {
        self.limit = limit
    }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        status = head.status
        if let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > limit {
            return task.eventLoop.makeFailedFuture(TooLarge())
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        guard body.readableBytes + buffer.readableBytes <= limit else {
            return task.eventLoop.makeFailedFuture(TooLarge())
        }
        var part = buffer
        body.writeBuffer(&part)
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        (status, body)
    }
}
