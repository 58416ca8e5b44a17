import DAQCore
import Foundation
import NIOCore
import NIOHTTP1

/// Answers one connection of the view: the page, the event stream, the buttons and `/health`.
///
/// Every request is judged by ``ViewAccess`` first (401 without a token, 403 with a wrong one or
/// a foreign `Host`), the page included. An `/events` request turns the connection into a
/// Server-Sent Events stream registered with the ``ViewHub``; its idle timeout is lifted, since
/// a page only listens.
final class ViewHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    let shared: ViewServer.Shared
    private var head: HTTPRequestHead?
    private var client: ViewClient?

    init(shared: ViewServer.Shared) { self.shared = shared }

    /// A connection idle past ``ViewServer/idleTimeout`` is closed.
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if event is IdleStateHandler.IdleStateEvent {
            context.close(promise: nil)
        } else {
            context.fireUserInboundEventTriggered(event)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let client { shared.hub.remove(client) }
        client = nil
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let h): head = h
        case .body: break  // the buttons carry their command in the path; a body is ignored
        case .end:
            guard let h = head, client == nil else { return }
            head = nil
            answer(ViewRequest(h), head: h, context: context)
        }
    }

    private func answer(_ request: ViewRequest, head: HTTPRequestHead, context: ChannelHandlerContext) {
        switch shared.access.judge(token: request.token, host: request.host) {
        case .missing: return respond(context, head, .unauthorized, text: "this view needs its token: ?token=…\n")
        case .refused: return respond(context, head, .forbidden, text: "forbidden\n")
        case .allowed: break
        }
        switch request.route {
        case .page:
            respond(context, head, .ok, type: "text/html; charset=utf-8", body: shared.page)
        case .health:
            let hub = shared.hub
            let json =
                #"{"clients":\#(hub.clientCount),"framesSent":\#(hub.framesSent.load(ordering: .relaxed)),"framesDropped":\#(hub.framesDropped.load(ordering: .relaxed)),"ended":\#(hub.ended)}"#
            respond(context, head, .ok, type: "application/json", body: Array((json + "\n").utf8))
        case .events:
            openStream(context, head)
        case .control(let verb):
            guard request.fromPage else {
                return respond(context, head, .forbidden, text: "buttons need the X-DAQ-View header the page sends\n")
            }
            switch ViewRequest.controlCommand(verb, query: request.query) {
            case .failure(let refusal):
                respond(context, head, .badRequest, type: "application/json", body: Self.refusal(refusal.message))
            case .success(let command):
                forward(command, context: context, head: head)
            }
        case .notFound: respond(context, head, .notFound, text: "not found; the view serves /, /events and /health\n")
        case .methodNotAllowed: respond(context, head, .methodNotAllowed, text: "method not allowed\n")
        }
    }

    private func openStream(_ context: ChannelHandlerContext, _ head: HTTPRequestHead) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: "text/event-stream")
        headers.add(name: "Cache-Control", value: "no-store")
        context.writeAndFlush(
            wrapOutboundOut(.head(HTTPResponseHead(version: head.version, status: .ok, headers: headers))),
            promise: nil)
        // A page only listens: the idle timeout is for requests, not for a stream being read.
        context.pipeline.syncOperations.removeHandler(name: ViewServer.idleHandlerName, promise: nil)
        let client = ViewClient(channel: context.channel)
        self.client = client
        // A reconnect delay for EventSource, then the recent past and every new message.
        context.writeAndFlush(
            wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: "retry: 1000\n\n")))),
            promise: nil)
        shared.hub.add(client)
    }

    /// Sends `command` through the control socket, as `daq control` does, off the event loop
    /// (the socket is blocking), and answers with what the run said.
    private func forward(_ command: String, context: ChannelHandlerContext, head: HTTPRequestHead) {
        let channel = context.channel
        let socket = shared.target.socket.withLock { $0 }
        let version = head.version
        let keepAlive = head.isKeepAlive
        DispatchQueue.global().async {
            let answer: (HTTPResponseStatus, [UInt8])
            do {
                guard let socket else { throw ControlError("no run to send it to yet") }
                let line = try ControlClient(run: socket).request(command)
                answer =
                    line == "{\"ok\":true}" ? (.ok, Array((line + "\n").utf8)) : (.conflict, Array((line + "\n").utf8))
            } catch {
                answer = (.badGateway, Self.refusal("\(error)"))
            }
            channel.eventLoop.execute {
                Self.write(channel, version: version, keepAlive: keepAlive, answer.0, "application/json", answer.1)
            }
        }
    }

    private static func refusal(_ message: String) -> [UInt8] {
        var out: [UInt8] = Array(#"{"ok":false,"error":"#.utf8)
        JSONEncoding.appendString(message, to: &out)
        out.append(contentsOf: "}\n".utf8)
        return out
    }

    private func respond(
        _ context: ChannelHandlerContext, _ head: HTTPRequestHead, _ status: HTTPResponseStatus,
        type: String = "text/plain; charset=utf-8", text: String? = nil, body: [UInt8] = []
    ) {
        let bytes = text.map { Array($0.utf8) } ?? body
        Self.write(
            context.channel, version: head.version, keepAlive: head.isKeepAlive, status, type,
            head.method == .HEAD ? [] : bytes, length: bytes.count)
    }

    private static func write(
        _ channel: any Channel, version: HTTPVersion, keepAlive: Bool, _ status: HTTPResponseStatus, _ type: String,
        _ body: [UInt8], length: Int? = nil
    ) {
        var headers = HTTPHeaders()
        headers.add(name: "Content-Type", value: type)
        headers.add(name: "Content-Length", value: "\(length ?? body.count)")
        headers.add(name: "Cache-Control", value: "no-store")
        headers.add(name: "X-Content-Type-Options", value: "nosniff")
        if !keepAlive { headers.add(name: "Connection", value: "close") }
        channel.write(
            HTTPServerResponsePart.head(HTTPResponseHead(version: version, status: status, headers: headers)),
            promise: nil)
        if !body.isEmpty {
            channel.write(HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(bytes: body))), promise: nil)
        }
        let done = channel.writeAndFlush(HTTPServerResponsePart.end(nil))
        if !keepAlive { done.whenComplete { _ in channel.close(promise: nil) } }
    }
}
