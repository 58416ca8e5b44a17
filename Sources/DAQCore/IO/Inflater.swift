import CZlib

/// Streaming raw-deflate decompression (RFC 1951, as zip members store it), in constant memory:
/// the caller hands in compressed bytes and takes out decompressed ones, chunk by chunk.
///
/// Plugins cannot import zlib themselves (only DAQCore does), so zip and other deflate-based
/// device formats decompress through this.
///
/// # Thread safety
/// Not thread-safe: one reader owns it.
public final class Inflater {
    /// zlib keeps a pointer back to its stream and refuses a stream that moved, so the stream
    /// lives at a fixed address rather than in a Swift property.
    private let stream: UnsafeMutablePointer<z_stream>
    /// Whether the deflate stream has ended (its last block was read).
    public private(set) var finished = false
    /// Compressed bytes consumed so far.
    public private(set) var consumed: Int64 = 0
    /// An error met after some output of the same call, raised by the next call.
    private var failure: InflateError?

    /// A decompressor for raw deflate data (no zlib or gzip wrapper).
    /// - Throws: ``InflateError`` if zlib cannot be initialised (out of memory).
    public init() throws {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let code = inflateInit2_(stream, -15, zlibVersion(), Int32(MemoryLayout<z_stream>.size))
        guard code == Z_OK else {
            stream.deallocate()
            throw InflateError(offset: 0, message: "cannot start zlib (code \(code))")
        }
    }

    deinit {
        inflateEnd(stream)
        stream.deallocate()
    }

    /// Decompresses from `input` into `output` until one of them is used up or the stream ends.
    /// - Returns: the bytes of `input` consumed and of `output` filled.
    /// - Throws: ``InflateError`` for data that is not valid deflate, with the offset in the
    ///   compressed data where zlib gave up.
    public func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> (
        consumed: Int, produced: Int
    ) {
        if let failure {
            self.failure = nil
            throw failure
        }
        if finished || output.isEmpty { return (0, 0) }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress?.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = uInt(input.count)
        stream.pointee.next_out = output.baseAddress?.assumingMemoryBound(to: Bytef.self)
        stream.pointee.avail_out = uInt(output.count)
        let code = CZlib.inflate(stream, Z_NO_FLUSH)
        let used = input.count - Int(stream.pointee.avail_in)
        let produced = output.count - Int(stream.pointee.avail_out)
        consumed += Int64(used)
        stream.pointee.next_in = nil
        stream.pointee.next_out = nil
        switch code {
        case Z_OK: return (used, produced)
        case Z_STREAM_END:
            finished = true
            return (used, produced)
        case Z_BUF_ERROR:
            // No progress was possible: more input is needed (or more room, which the caller gives).
            return (used, produced)
        default:
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "zlib error \(code)"
            let error = InflateError(offset: consumed, message: message)
            // What was decompressed before the damage is handed out first.
            guard produced == 0 else {
                failure = error
                return (used, produced)
            }
            throw error
        }
    }
}

/// Deflate data that cannot be decompressed.
public struct InflateError: Error, CustomStringConvertible {
    /// Offset in the compressed data where decompression failed.
    public var offset: Int64
    /// zlib's reason.
    public var message: String
    public var description: String { "bad deflate data at compressed byte \(offset): \(message)" }
}
