import DAQCore
import DequeModule
import NIOCore
import NIOHTTP1
import Synchronization

/// Hands the view's messages to every connected page, never waiting for one.
///
/// The feed publishes a few messages a second (one per stream per frame, a stats line per
/// second), never one per sample. Each goes to each client's event loop, which writes it only
/// while the connection is writable (NIO's write-buffer water marks); a page that stalls, or a
/// socket that never reads, loses frames, counted in ``framesDropped``, and holds nothing back.
///
/// A page that connects late gets the recent past first: the last ``historyLimit`` data and mark
/// messages, the last ``logLimit`` log lines and the latest stats.
///
/// # Thread safety
/// Clients and history sit behind one `Mutex`; writes happen on each client's event loop.
final class ViewHub: Sendable {
    static let historyLimit = 1200
    static let logLimit = 200

    private struct State {
        var clients: [ObjectIdentifier: ViewClient] = [:]
        var history = Deque<[UInt8]>()
        var log = Deque<[UInt8]>()
        var stats: [UInt8]?
        var batch: [UInt8]?
        var ended = false
        /// Counts ``reset()``s: a feed publishes under the generation it started in, and what it
        /// publishes after a reset (a batch moving to its next recording) is not shown.
        var generation = 0
    }
    private let state = Mutex(State())
    /// Messages written to a client, and messages a client was not writable for.
    let framesSent = Atomic<Int>(0)
    let framesDropped = Atomic<Int>(0)

    init() {}

    /// The clients connected now.
    var clientCount: Int { state.withLock { $0.clients.count } }

    /// Whether the run has ended.
    var ended: Bool { state.withLock { $0.ended } }

    /// Registers `client` and sends it the recent past, in order, before any newer message.
    func add(_ client: ViewClient) {
        state.withLock { s in
            s.clients[ObjectIdentifier(client)] = client
            // Queued on the client's loop under the lock, so nothing published later overtakes it.
            var snapshot: [UInt8] = []
            if let batch = s.batch { snapshot += batch }
            if let stats = s.stats { snapshot += stats }
            for m in s.history { snapshot += m }
            for m in s.log { snapshot += m }
            if s.ended { snapshot += ViewFrame.sse("ended", Array("{}".utf8)) }
            if !snapshot.isEmpty { client.send(snapshot, hub: self, always: true) }
        }
    }

    func remove(_ client: ViewClient) {
        _ = state.withLock { $0.clients.removeValue(forKey: ObjectIdentifier(client)) }
    }

    /// Sends a `data` or `mark` message and keeps it for pages that connect later.
    func publish(history message: [UInt8], generation: Int = 0) {
        broadcast(message, generation: generation) { s in
            s.history.append(message)
            if s.history.count > Self.historyLimit { s.history.removeFirst() }
        }
    }

    /// Sends a `log` message and keeps it for pages that connect later.
    func publish(log message: [UInt8], generation: Int = 0) {
        broadcast(message, generation: generation) { s in
            s.log.append(message)
            if s.log.count > Self.logLimit { s.log.removeFirst() }
        }
    }

    /// Sends the latest `stats` message, replacing the one kept.
    func publish(stats message: [UInt8], generation: Int = 0) {
        broadcast(message, generation: generation) { $0.stats = message }
    }

    /// Sends a batch's progress (`daq batch --view`), replacing the one kept; a reset keeps it.
    func publish(batch message: [UInt8]) {
        broadcast(message, generation: nil) { $0.batch = message }
    }

    /// Tells every page the run has ended.
    func publishEnded(generation: Int = 0) {
        let message = ViewFrame.sse("ended", Array("{}".utf8))
        broadcast(message, generation: generation) { $0.ended = true }
    }

    /// Tells every page the view is closing and ends each stream properly (its last chunk, then
    /// the connection), so that a browser sees the stream end rather than break.
    func finishAll() {
        let message = ViewFrame.sse("closing", Array("{}".utf8))
        state.withLock { s in
            for c in s.clients.values { c.finish(message) }
            s.clients.removeAll()
        }
    }

    /// Forgets the run shown so far and tells every page to clear it, for the next run of a
    /// batch. - Returns: the generation the next run's feed publishes under.
    func reset(title: String) -> Int {
        var json: [UInt8] = Array(#"{"title":"#.utf8)
        JSONEncoding.appendString(title, to: &json)
        json.append(UInt8(ascii: "}"))
        let message = ViewFrame.sse("reset", json)
        return state.withLock { s in
            s.generation += 1
            s.history.removeAll()
            s.log.removeAll()
            s.stats = nil
            s.ended = false
            for c in s.clients.values { c.send(message, hub: self, always: false) }
            return s.generation
        }
    }

    private func broadcast(_ message: [UInt8], generation: Int?, keeping: (inout State) -> Void) {
        state.withLock { s in
            if let generation, generation != s.generation { return }
            keeping(&s)
            for c in s.clients.values { c.send(message, hub: self, always: false) }
        }
    }
}

/// One page's event stream: its channel, written to on its own event loop.
final class ViewClient: Sendable {
    let channel: any Channel

    init(channel: any Channel) { self.channel = channel }

    /// Writes `bytes` as one chunk of the response body when the channel is writable, or `always`
    /// (the snapshot a page starts from); otherwise the message is dropped and counted.
    func send(_ bytes: [UInt8], hub: ViewHub, always: Bool) {
        let channel = self.channel
        channel.eventLoop.execute {
            guard channel.isActive else { return }
            guard always || channel.isWritable else {
                hub.framesDropped.add(1, ordering: .relaxed)
                return
            }
            let buffer = channel.allocator.buffer(bytes: bytes)
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(buffer)), promise: nil)
            hub.framesSent.add(1, ordering: .relaxed)
        }
    }

    /// Writes `last` if it can, ends the response and closes the connection.
    func finish(_ last: [UInt8]) {
        let channel = self.channel
        channel.eventLoop.execute {
            guard channel.isActive else { return }
            if channel.isWritable {
                channel.write(
                    HTTPServerResponsePart.body(.byteBuffer(channel.allocator.buffer(bytes: last))), promise: nil)
            }
            channel.writeAndFlush(HTTPServerResponsePart.end(nil), promise: nil)
            channel.close(promise: nil)
        }
    }
}
