/// The pass that builds an ``XDFIndex``: chunk after chunk, each checked against the
/// specification; damage is recorded with its chunk number and offset, and reading goes on past
/// the next Boundary chunk, as pyxdf does.
struct XDFScan {
    var index: XDFIndex
    let input: XDFInput
    let checkSamples: Bool
    /// Each stream's last time stamp, for samples that carry none.
    private var lastStamp: [UInt32: Double] = [:]
    private var block = XDFSampleBlock()
    /// No chunk is this long: a length past it is damage, never an allocation.
    static let longestChunk: Int64 = 1 << 31

    init(index: XDFIndex, input: XDFInput, checkSamples: Bool) {
        self.index = index
        self.input = input
        self.checkSamples = checkSamples
    }

    mutating func run() throws {
        var number = 0
        while true {
            let start = input.position
            guard let lengthBytes = try input.take(1) else { return }
            number += 1
            index.chunkCount = number
            let n = lengthBytes.first!
            guard n == 1 || n == 4 || n == 8 else {
                try damaged(number, start, "NumLengthBytes must be 1, 4 or 8, found \(n)")
                continue
            }
            guard let raw = try input.take(Int(n)) else {
                try damaged(number, start, "the file ends inside the chunk's length")
                continue
            }
            var length: UInt64 = 0
            for (k, b) in raw.enumerated() { length |= UInt64(b) << (8 * UInt64(k)) }
            guard length >= 2, length <= UInt64(Self.longestChunk) else {
                try damaged(number, start, "a chunk length of \(length) bytes (expected 2 to \(Self.longestChunk))")
                continue
            }
            guard let tagBytes = try input.take(2) else {
                try damaged(number, start, "the file ends inside the chunk's tag")
                continue
            }
            let tagValue = UInt16(tagBytes.first!) | UInt16(tagBytes.last!) << 8
            let contentLength = Int(length) - 2
            guard let tag = XDFChunkTag(rawValue: tagValue) else {
                index.unknownChunks += 1
                guard try input.skip(Int64(contentLength)) else {
                    try damaged(number, start, "a chunk of tag \(tagValue) and \(length) bytes; the file ends first")
                    continue
                }
                index.wholeEnd = input.position
                continue
            }
            if tag == .samples && !checkSamples {
                // Only the stream id is needed to place the chunk.
                guard contentLength >= 4, let id = try input.take(4) else {
                    try damaged(number, start, "a Samples chunk of \(length) bytes; the file ends first")
                    continue
                }
                let contentStart = input.position
                guard try input.skip(Int64(contentLength - 4)) else {
                    try damaged(number, start, "a Samples chunk of \(length) bytes; the file ends first")
                    continue
                }
                let streamID = XDFScan.uint32(id)
                if let s = index.stream(id: streamID) {
                    index.streams[s].chunks.append(
                        XDFChunkSpan(
                            number: number, start: start, content: contentStart, length: contentLength - 4, samples: 0))
                }
                index.wholeEnd = input.position
                continue
            }
            let contentStart = input.position
            guard let content = try input.take(contentLength) else {
                try damaged(
                    number, start,
                    "a \(tag.name) chunk of \(length) bytes; the file ends after \(input.position - contentStart + 2) of them"
                )
                continue
            }
            do {
                try read(tag, content, number: number, start: start, contentStart: contentStart)
                index.wholeEnd = input.position
            } catch {
                try damaged(number, start, "\(tag.name) chunk: \(error)")
            }
        }
    }

    /// Records damage, and goes on past the next Boundary chunk (or to the end).
    private mutating func damaged(_ number: Int, _ start: Int64, _ problem: String) throws {
        let found = try input.scanPastBoundary()
        index.damage.append(
            XDFDamage(
                path: index.path, chunk: number, offset: start, problem: problem,
                resumedAt: found ? input.position : nil))
    }

    private mutating func read(
        _ tag: XDFChunkTag, _ content: ArraySlice<UInt8>, number: Int, start: Int64, contentStart: Int64
    ) throws {
        var streamID: UInt32 = 0
        var body = content
        if tag.hasStreamID {
            guard content.count >= 4 else { throw XDFContentProblem(offset: 0, "expected a 4-byte stream id") }
            streamID = XDFScan.uint32(content.prefix(4))
            body = content.dropFirst(4)
        }
        switch tag {
        case .fileHeader:
            index.fileHeader = try XDFXMLParser.parse(body)
        case .streamHeader:
            let xml = try XDFXMLParser.parse(body)
            let info = try XDFStreamInfo(id: streamID, header: xml)
            if let s = index.stream(id: streamID) {
                // A repeated header (pyxdf keeps the last) restates the stream: keep its data.
                index.streams[s].info = info
            } else {
                index.streams.append(XDFStreamRecord(info: info, headerChunk: number))
            }
        case .samples:
            guard let s = index.stream(id: streamID) else {
                throw XDFContentProblem(offset: 0, "samples of stream \(streamID), whose StreamHeader has not come")
            }
            var last = lastStamp[streamID] ?? 0
            block.removeAll()
            let (count, first) = try XDFSampleDecoder.decode(
                body, info: index.streams[s].info, last: &last, into: &block, keep: false)
            lastStamp[streamID] = last
            index.streams[s].chunks.append(
                XDFChunkSpan(
                    number: number, start: start, content: contentStart + 4, length: body.count, samples: count))
            index.streams[s].sampleCount += count
            if count > 0 {
                if index.streams[s].firstTimestamp == nil { index.streams[s].firstTimestamp = first }
                index.streams[s].lastTimestamp = last
            }
        case .clockOffset:
            guard let s = index.stream(id: streamID) else {
                throw XDFContentProblem(
                    offset: 0, "a clock offset of stream \(streamID), whose StreamHeader has not come")
            }
            var r = XDFContentReader(body)
            let time = try r.double("the collection time")
            let value = try r.double("the offset value")
            index.streams[s].clockTimes.append(time)
            index.streams[s].clockValues.append(value)
        case .streamFooter:
            guard let s = index.stream(id: streamID) else {
                throw XDFContentProblem(offset: 0, "the footer of stream \(streamID), whose StreamHeader has not come")
            }
            index.streams[s].footer = try XDFXMLParser.parse(body)
        case .boundary:
            break
        }
    }

    static func uint32(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var v: UInt32 = 0
        for (k, b) in bytes.enumerated() { v |= UInt32(b) << (8 * UInt32(k)) }
        return v
    }
}
