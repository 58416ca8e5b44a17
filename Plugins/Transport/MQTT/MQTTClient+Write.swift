import NIOCore
import NIOPosix

/// Writing PUBLISH packets: small messages share one buffer and one write; a large payload is
/// written in pieces so each piece's completion can be reported as progress.
extension MQTTClient {
    /// Writes `messages` (already given packet ids) and flushes. Runs on the event loop.
    func write(_ messages: [MQTTOutgoing], on channel: any Channel) {
        var buffer = channel.allocator.buffer(capacity: 0)
        var group: [MQTTOutgoing] = []
        var unencodable: [(MQTTOutgoing, String)] = []
        for m in messages {
            let size = m.payload.readableBytes
            if size > options.progressChunk {
                writeGroup(&buffer, &group, on: channel)
                writeLarge(m, on: channel)
                continue
            }
            if buffer.capacity == 0 {
                buffer.reserveCapacity(min(256 * 1024, messages.count * (size + m.topic.utf8.count + 8)))
            }
            let mark = buffer.writerIndex
            do {
                try MQTTPacket.writePublishHeader(m.publish, payloadLength: size, to: &buffer)
            } catch {
                buffer.moveWriterIndex(to: mark)
                unencodable.append((m, "\(error)"))
                continue
            }
            buffer.writeImmutableBuffer(m.payload)
            group.append(m)
            if buffer.readableBytes >= 256 * 1024 { writeGroup(&buffer, &group, on: channel) }
        }
        writeGroup(&buffer, &group, on: channel)
        channel.flush()
        for (m, reason) in unencodable {
            if let id = m.packetID { _ = forget(id) }
            delegate(failed: [m], reason: reason)
        }
    }

    private func writeGroup(_ buffer: inout ByteBuffer, _ group: inout [MQTTOutgoing], on channel: any Channel) {
        guard !group.isEmpty else { return }
        let messages = group
        let promise = channel.eventLoop.makePromise(of: Void.self)
        promise.futureResult.whenComplete { result in self.written(messages, result) }
        channel.write(buffer, promise: promise)
        buffer = channel.allocator.buffer(capacity: 0)
        group.removeAll(keepingCapacity: true)
    }

    private func writeLarge(_ m: MQTTOutgoing, on channel: any Channel) {
        var header = channel.allocator.buffer(capacity: 16 + m.topic.utf8.count)
        let total = m.payload.readableBytes
        do {
            try MQTTPacket.writePublishHeader(m.publish, payloadLength: total, to: &header)
        } catch {
            if let id = m.packetID { _ = forget(id) }
            delegate(failed: [m], reason: "\(error)")
            return
        }
        channel.write(header, promise: nil)
        var payload = m.payload
        var sent = 0
        while payload.readableBytes > 0 {
            let piece = payload.readSlice(length: min(options.progressChunk, payload.readableBytes))!
            sent += piece.readableBytes
            let upTo = sent
            let promise = channel.eventLoop.makePromise(of: Void.self)
            promise.futureResult.whenComplete { result in
                if case .success = result, upTo < total { self.progress(m, bytes: upTo, total: total) }
                if upTo == total { self.written([m], result) }
            }
            channel.write(piece, promise: promise)
        }
    }

    /// Readable text for a connection error: NIO's connect errors nest the cause per address.
    static func describe(_ error: any Error) -> String {
        if let e = error as? NIOConnectionError {
            if let first = e.connectionErrors.first { return describe(first.error) }
            if e.dnsAAAAError != nil || e.dnsAError != nil { return "cannot resolve host '\(e.host)'" }
        }
        if let e = error as? IOError {
            switch e.errnoCode {
            case ECONNREFUSED: return "connection refused"
            case ETIMEDOUT: return "timed out"
            case EHOSTUNREACH, ENETUNREACH: return "no route to host"
            default: return "\(e)"
            }
        }
        if error is ChannelError, case .connectTimeout = error as! ChannelError { return "timed out" }
        return "\(error)"
    }

    /// Seconds with one decimal, for messages.
    static func seconds(_ s: Double) -> String {
        let tenths = Int((s * 10).rounded())
        return "\(tenths / 10).\(tenths % 10)"
    }
}
