/// The samples of a stream's Samples chunk, decoded: each sample's time stamp as recorded (on
/// its outlet's LSL clock), and its values channel by channel, interleaved (sample 0's
/// channels, then sample 1's …), in the storage its format calls for.
struct XDFSampleBlock {
    var times: [Double] = []
    /// float32 and double64 values.
    var doubles: [Double] = []
    /// int8 … int64 values.
    var ints: [Int64] = []
    /// string values.
    var strings: [String] = []

    var count: Int { times.count }

    mutating func removeAll() {
        times.removeAll(keepingCapacity: true)
        doubles.removeAll(keepingCapacity: true)
        ints.removeAll(keepingCapacity: true)
        strings.removeAll(keepingCapacity: true)
    }
}

/// Reads Samples chunk content: `[NumSampleBytes][NumSamples]` then per sample a time-stamp
/// flag (0: none; else 8 bytes of double follow), then the values, little-endian; a text value is
/// `[NumLengthBytes][Length][bytes]`.
enum XDFSampleDecoder {
    /// Walks `content` (a Samples chunk after its stream id), appending to `block` when given.
    /// - Parameters:
    ///   - last: the stream's previous time stamp; a sample without one is `last` + 1 / nominal
    ///     rate, as the specification (and pyxdf) deduce it. Updated to the chunk's last.
    /// - Returns: the number of samples and the first one's time stamp.
    /// - Throws: what does not fit, with the offset in `content`.
    static func decode(
        _ content: ArraySlice<UInt8>, info: XDFStreamInfo, last: inout Double, into block: inout XDFSampleBlock,
        keep: Bool
    ) throws(XDFContentProblem) -> (count: Int, first: Double?) {
        var r = XDFContentReader(content)
        let count = try r.varint("the sample count")
        let channels = info.channelCount
        let width = info.format.width
        // A count the content cannot hold is damage, not a reason to reserve memory for it.
        guard count <= content.count else {
            throw XDFContentProblem(offset: 0, "a sample count of \(count) in \(content.count) bytes")
        }
        if keep {
            block.times.reserveCapacity(block.times.count + count)
            switch info.format {
            case .float32, .double64: block.doubles.reserveCapacity(block.doubles.count + count * channels)
            case .string: block.strings.reserveCapacity(block.strings.count + count * channels)
            default: block.ints.reserveCapacity(block.ints.count + count * channels)
            }
        }
        var first: Double?
        let interval = info.deducedInterval
        if width > 0 {
            // Fixed-size values: one pass over the bytes, bounds checked by hand, no slice per sample.
            let sampleBytes = channels * width
            var failure: XDFContentProblem?
            var end = r.offset
            content.withUnsafeBytes { p in
                var pos = end
                for k in 0..<count {
                    guard pos < p.count else {
                        failure = XDFContentProblem(
                            offset: pos, "expected sample \(k)'s time-stamp flag; the chunk ends")
                        return
                    }
                    let flag = p[pos]
                    pos += 1
                    var stamp = last + interval
                    if flag != 0 {
                        guard pos + 8 <= p.count else {
                            failure = XDFContentProblem(
                                offset: pos, "expected sample \(k)'s time stamp; the chunk ends")
                            return
                        }
                        stamp = Double(
                            bitPattern: UInt64(littleEndian: p.loadUnaligned(fromByteOffset: pos, as: UInt64.self)))
                        pos += 8
                    }
                    last = stamp
                    if k == 0 { first = stamp }
                    guard pos + sampleBytes <= p.count else {
                        failure = XDFContentProblem(
                            offset: pos, "expected sample \(k)'s \(channels) values of \(width) bytes; the chunk ends")
                        return
                    }
                    if keep {
                        block.times.append(stamp)
                        append(
                            UnsafeRawBufferPointer(rebasing: p[pos..<(pos + sampleBytes)]), format: info.format,
                            to: &block)
                    }
                    pos += sampleBytes
                }
                end = pos
            }
            if let failure { throw failure }
            if end != content.count {
                throw XDFContentProblem(
                    offset: end, "\(count) samples end after \(end) of the chunk's \(content.count) bytes")
            }
            return (count, first)
        }
        for k in 0..<count {
            let flag = try r.bytes(1, "sample \(k)'s time-stamp flag").first!
            let stamp = flag != 0 ? try r.double("sample \(k)'s time stamp") : last + interval
            last = stamp
            if first == nil { first = stamp }
            if keep { block.times.append(stamp) }
            for c in 0..<channels {
                let length = try r.varint("the length of sample \(k)'s channel \(c + 1) text")
                let text = try r.bytes(length, "sample \(k)'s channel \(c + 1) text of \(length) bytes")
                if keep { block.strings.append(String(decoding: text, as: UTF8.self)) }
            }
        }
        if !r.atEnd {
            throw XDFContentProblem(
                offset: r.offset, "\(count) samples end after \(r.offset) of the chunk's \(content.count) bytes")
        }
        return (count, first)
    }

    /// Appends `p`'s values (one sample's channels), widened to the block's storage.
    private static func append(_ p: UnsafeRawBufferPointer, format: XDFChannelFormat, to block: inout XDFSampleBlock) {
        let n = p.count / Swift.max(format.width, 1)
        switch format {
        case .float32:
            for i in 0..<n {
                let bits = UInt32(littleEndian: p.loadUnaligned(fromByteOffset: i * 4, as: UInt32.self))
                block.doubles.append(Double(Float(bitPattern: bits)))
            }
        case .double64:
            for i in 0..<n {
                let bits = UInt64(littleEndian: p.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                block.doubles.append(Double(bitPattern: bits))
            }
        case .int8:
            for i in 0..<n { block.ints.append(Int64(Int8(bitPattern: p[i]))) }
        case .int16:
            for i in 0..<n {
                block.ints.append(Int64(Int16(littleEndian: p.loadUnaligned(fromByteOffset: i * 2, as: Int16.self))))
            }
        case .int32:
            for i in 0..<n {
                block.ints.append(Int64(Int32(littleEndian: p.loadUnaligned(fromByteOffset: i * 4, as: Int32.self))))
            }
        case .int64:
            for i in 0..<n {
                block.ints.append(Int64(littleEndian: p.loadUnaligned(fromByteOffset: i * 8, as: Int64.self)))
            }
        case .string:
            break
        }
    }
}

/// Content that does not hold what its chunk's kind says it must, with the offset in the content.
struct XDFContentProblem: Error, CustomStringConvertible {
    var offset: Int
    var description: String
    init(offset: Int, _ description: String) {
        self.offset = offset
        self.description = description
    }
}

/// Bounds-checked little-endian reads from a chunk's content.
struct XDFContentReader {
    private let content: ArraySlice<UInt8>
    private var index: Int

    init(_ content: ArraySlice<UInt8>) {
        self.content = content
        index = content.startIndex
    }

    /// Bytes read so far.
    var offset: Int { index - content.startIndex }
    var atEnd: Bool { index == content.endIndex }

    mutating func bytes(_ count: Int, _ what: @autoclosure () -> String) throws(XDFContentProblem) -> ArraySlice<UInt8>
    {
        guard count >= 0, content.endIndex - index >= count else {
            throw XDFContentProblem(
                offset: offset, "expected \(what()), but the chunk has \(content.endIndex - index) bytes left")
        }
        defer { index += count }
        return content[index..<(index + count)]
    }

    mutating func double(_ what: @autoclosure () -> String) throws(XDFContentProblem) -> Double {
        Double(bitPattern: try uint(8, what()))
    }

    mutating func uint(_ width: Int, _ what: @autoclosure () -> String) throws(XDFContentProblem) -> UInt64 {
        let raw = try bytes(width, what())
        var value: UInt64 = 0
        for (k, b) in raw.enumerated() { value |= UInt64(b) << (8 * UInt64(k)) }
        return value
    }

    /// A `[NumLengthBytes][Length]` pair: 1, 4 or 8 bytes of little-endian length.
    mutating func varint(_ what: @autoclosure () -> String) throws(XDFContentProblem) -> Int {
        let at = offset
        let n = try bytes(1, what()).first!
        guard n == 1 || n == 4 || n == 8 else {
            throw XDFContentProblem(offset: at, "\(what()): NumLengthBytes must be 1, 4 or 8, found \(n)")
        }
        let value = try uint(Int(n), what())
        guard value <= UInt64(Int.max) else {
            throw XDFContentProblem(offset: at, "\(what()) of \(value) is too large")
        }
        return Int(value)
    }
}
