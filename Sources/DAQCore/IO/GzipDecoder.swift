import CZlib

/// gzip (RFC 1952) decompression that makes every check gzip(1) makes: each member's header,
/// its deflate data, and the CRC-32 and length in its trailer. Input that ends inside a member
/// is an error from ``finish()``, never a short stream taken as whole.
///
/// Members follow one another (`cat a.gz b.gz`); zero bytes after the last member are padding
/// and allowed, as gzip(1) and Python's `gzip` allow them; any other byte there is an error.
/// Every error carries the offset in the compressed input where it was found.
///
/// A state machine without I/O: ``GzipFileInput`` feeds it a file, the fuzz target feeds it bytes.
///
/// # Thread safety
/// Not thread-safe: one reader owns it.
public final class GzipDecoder {
    private enum State {
        /// Reading the header of member `member` (1-based).
        case header(GzipHeaderParser, member: Int)
        /// Decompressing member `member`: the CRC and length of its content so far.
        case data(Inflater, member: Int, crc: UInt, size: UInt32, dataStart: Int64)
        /// Reading the 8-byte trailer: the bytes seen, with the content's CRC and length.
        case trailer(stored: UInt64, seen: Int, member: Int, crc: UInt, size: UInt32)
        /// After a member's trailer: another member, zero padding or the end may follow.
        case between(members: Int)
        /// Zero bytes after the last member.
        case padding
        /// An error, raised again by every later call.
        case failed(GzipError)
    }

    private var state = State.header(GzipHeaderParser(), member: 1)
    /// Compressed bytes consumed so far: the offset of the next byte of input.
    public private(set) var offset: Int64 = 0
    /// Content bytes produced so far.
    public private(set) var produced: Int64 = 0

    /// A decoder at the start of a gzip file.
    public init() {}

    /// Decompresses from `input` into `output` until the input is used up, the output is full or
    /// an error is found. Output produced before an error is returned first; the error comes from
    /// the next call.
    /// - Returns: the bytes of `input` consumed and of `output` filled.
    /// - Throws: ``GzipError`` for damaged data, with its compressed offset.
    public func decode(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws -> (
        consumed: Int, produced: Int
    ) {
        var used = 0
        var made = 0
        while true {
            switch state {
            case .failed(let error):
                guard made > 0 else { throw error }
                return (used, made)
            case .header(var parser, let member):
                guard used < input.count else { return (used, made) }
                do {
                    while used < input.count {
                        let done = try parser.take(input[used])
                        used += 1
                        offset += 1
                        if done { break }
                    }
                } catch {
                    state = .failed(
                        GzipError(offset: offset, kind: .corrupt, message: "bad gzip header: \(error.message)"))
                    continue
                }
                if parser.isDone {
                    state = .data(try Inflater(), member: member, crc: crc32(0, nil, 0), size: 0, dataStart: offset)
                } else {
                    state = .header(parser, member: member)
                }
            case .data(let inflater, let member, var crc, var size, let dataStart):
                guard made < output.count else { return (used, made) }
                let step: (consumed: Int, produced: Int)
                do {
                    step = try inflater.inflate(
                        UnsafeRawBufferPointer(rebasing: input[used...]),
                        into: UnsafeMutableRawBufferPointer(rebasing: output[made...]))
                } catch let bad as InflateError {
                    state = .failed(
                        GzipError(
                            offset: dataStart + bad.offset, kind: .corrupt,
                            message: "invalid deflate data: \(bad.message)"))
                    continue
                }
                if step.produced > 0 {
                    crc = crc32(
                        crc, output.baseAddress!.advanced(by: made).assumingMemoryBound(to: Bytef.self),
                        uInt(step.produced))
                    size &+= UInt32(truncatingIfNeeded: step.produced)
                }
                used += step.consumed
                made += step.produced
                offset += Int64(step.consumed)
                produced += Int64(step.produced)
                if inflater.finished {
                    state = .trailer(stored: 0, seen: 0, member: member, crc: crc, size: size)
                } else {
                    state = .data(inflater, member: member, crc: crc, size: size, dataStart: dataStart)
                    // Nothing moved: zlib needs more input.
                    if step.consumed == 0 && step.produced == 0 { return (used, made) }
                }
            case .trailer(var stored, var seen, let member, let crc, let size):
                while seen < 8 && used < input.count {
                    stored |= UInt64(input[used]) << (8 * UInt64(seen))
                    seen += 1
                    used += 1
                    offset += 1
                }
                guard seen == 8 else {
                    state = .trailer(stored: stored, seen: seen, member: member, crc: crc, size: size)
                    return (used, made)
                }
                let storedCRC = UInt32(truncatingIfNeeded: stored)
                let storedSize = UInt32(truncatingIfNeeded: stored >> 32)
                let at = offset - 8
                if storedCRC != UInt32(truncatingIfNeeded: crc) {
                    state = .failed(
                        GzipError(
                            offset: at, kind: .corrupt,
                            message:
                                "the content's CRC-32 is \(GzipHeaderParser.hex(UInt32(truncatingIfNeeded: crc))), "
                                + "the trailer of \(Self.member(member)) says \(GzipHeaderParser.hex(storedCRC)) (the data is damaged)"
                        ))
                } else if storedSize != size {
                    state = .failed(
                        GzipError(
                            offset: at + 4, kind: .corrupt,
                            message: "the content is \(size) bytes (modulo 2^32), "
                                + "the trailer of \(Self.member(member)) says \(storedSize) (the data is damaged)"))
                } else {
                    state = .between(members: member)
                }
            case .between(let members):
                guard used < input.count else { return (used, made) }
                switch input[used] {
                case 0x1F: state = .header(GzipHeaderParser(), member: members + 1)
                case 0: state = .padding
                default: state = .failed(trailingGarbage(input[used]))
                }
            case .padding:
                while used < input.count, input[used] == 0 {
                    used += 1
                    offset += 1
                }
                guard used < input.count else { return (used, made) }
                state = .failed(trailingGarbage(input[used]))
            }
        }
    }

    /// Ends the input.
    /// - Throws: ``GzipError`` when it ends inside a member (the file is cut short), or a
    ///   damage found before.
    public func finish() throws {
        let place: String
        switch state {
        case .failed(let error): throw error
        case .between, .padding: return
        case .header(let parser, let member):
            place = "inside the header of \(Self.member(member)), in \(parser.part)"
        case .data(_, let member, _, _, _):
            place = "inside the compressed data of \(Self.member(member))"
        case .trailer(_, let seen, let member, _, _):
            place = "inside the 8-byte trailer of \(Self.member(member)) (\(seen) of its bytes are there)"
        }
        let error = GzipError(offset: offset, kind: .truncated, message: place)
        state = .failed(error)
        throw error
    }

    /// Whether the input so far ends cleanly after a whole member.
    public var isAtMemberEnd: Bool {
        switch state {
        case .between, .padding: return true
        default: return false
        }
    }

    private func trailingGarbage(_ byte: UInt8) -> GzipError {
        GzipError(
            offset: offset, kind: .corrupt,
            message:
                "byte \(GzipHeaderParser.hex(byte)) follows the end of the gzip data (not another gzip member, not zero padding)"
        )
    }

    private static func member(_ n: Int) -> String { n == 1 ? "the first gzip member" : "gzip member \(n)" }
}

/// gzip data that is damaged or cut short.
public struct GzipError: Error, CustomStringConvertible, Sendable {
    /// What was wrong.
    public enum Kind: Sendable {
        /// The input ends inside a member: the file was cut short.
        case truncated
        /// A header, the deflate data, a trailer check or the bytes after the data are wrong.
        case corrupt
    }

    /// Offset in the compressed input where the problem was found.
    public var offset: Int64
    public var kind: Kind
    /// What was found there.
    public var message: String

    public var description: String {
        switch kind {
        case .truncated:
            return "the gzip data ends early at compressed byte \(offset), \(message) (the file is cut short)"
        case .corrupt: return "corrupt gzip data at compressed byte \(offset): \(message)"
        }
    }
}
