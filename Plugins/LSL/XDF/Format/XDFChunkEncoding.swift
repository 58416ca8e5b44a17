import DAQCore

/// Appends XDF chunks to a byte buffer: `[NumLengthBytes][Length][Tag][Content]`, the length
/// covering tag and content, all little-endian. A chunk is built whole in memory before it
/// reaches the file, so a file cut short ends at a chunk boundary or inside one, which readers
/// and `daq repair` drop.
enum XDFChunkEncoding {
    /// `[NumLengthBytes][Length]`: 1, 4 or 8 bytes, the fewest that hold `value`.
    static func appendVarint(_ value: Int, to out: inout [UInt8]) {
        if value < 256 {
            out.append(1)
            out.append(UInt8(value))
        } else if value <= Int(UInt32.max) {
            out.append(4)
            appendUInt(UInt64(value), width: 4, to: &out)
        } else {
            out.append(8)
            appendUInt(UInt64(value), width: 8, to: &out)
        }
    }

    static func appendUInt(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        if width == 8 {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
            return
        }
        for k in 0..<width { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(k)))) }
    }

    static func appendDouble(_ value: Double, to out: inout [UInt8]) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { out.append(contentsOf: $0) }
    }

    /// A chunk of `tag` for stream `stream` (when the tag has one) holding `content`.
    static func appendChunk(
        _ tag: XDFChunkTag, stream: UInt32? = nil, content: ArraySlice<UInt8>, to out: inout [UInt8]
    ) {
        let length = 2 + (tag.hasStreamID ? 4 : 0) + content.count
        appendVarint(length, to: &out)
        appendUInt(UInt64(tag.rawValue), width: 2, to: &out)
        if tag.hasStreamID { appendUInt(UInt64(stream ?? 0), width: 4, to: &out) }
        out.append(contentsOf: content)
    }

    /// A ClockOffset chunk: when it was measured and the offset, both seconds.
    static func appendClockOffset(stream: UInt32, time: Double, value: Double, to out: inout [UInt8]) {
        var content: [UInt8] = []
        content.reserveCapacity(16)
        appendDouble(time, to: &content)
        appendDouble(value, to: &content)
        appendChunk(.clockOffset, stream: stream, content: content[...], to: &out)
    }

    /// A Boundary chunk: its 16 signature bytes.
    static func appendBoundary(to out: inout [UInt8]) {
        appendChunk(.boundary, content: XDFChunkTag.boundarySignature[...], to: &out)
    }

    /// A StreamFooter: first and last time stamp, sample count and every clock offset, as
    /// LabRecorder writes them.
    static func appendFooter(
        stream: UInt32, first: Double, last: Double, count: Int, offsets: [(time: Double, value: Double)],
        to out: inout [UInt8]
    ) {
        var xml = XDFXMLWriter()
        xml.raw("<?xml version=\"1.0\"?>")
        xml.open("info")
        xml.element("writer", "daq logger.xdf")
        xml.element("first_timestamp", number: first)
        xml.element("last_timestamp", number: last)
        xml.element("sample_count", String(count))
        xml.open("clock_offsets")
        for offset in offsets {
            xml.open("offset")
            xml.element("time", number: offset.time)
            xml.element("value", number: offset.value)
            xml.close("offset")
        }
        xml.close("clock_offsets")
        xml.close("info")
        appendChunk(.streamFooter, stream: stream, content: xml.bytes[...], to: &out)
    }
}

/// Builds the XML of header and footer chunks, escaping text.
struct XDFXMLWriter {
    private(set) var bytes: [UInt8] = []

    mutating func raw(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func open(_ name: String) {
        bytes.append(UInt8(ascii: "<"))
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ">"))
    }

    mutating func close(_ name: String) {
        bytes.append(contentsOf: "</".utf8)
        bytes.append(contentsOf: name.utf8)
        bytes.append(UInt8(ascii: ">"))
    }

    /// `<name>text</name>`, or `<name/>` for no text.
    mutating func element(_ name: String, _ text: String?) {
        guard let text, !text.isEmpty else {
            bytes.append(UInt8(ascii: "<"))
            bytes.append(contentsOf: name.utf8)
            bytes.append(contentsOf: "/>".utf8)
            return
        }
        open(name)
        escape(text)
        close(name)
    }

    /// A number as the shortest text that reads back as the same double.
    mutating func element(_ name: String, number: Double) {
        open(name)
        NumberFormatting.appendShortest(number, to: &bytes)
        close(name)
    }

    private mutating func escape(_ text: String) {
        for b in text.utf8 {
            switch b {
            case UInt8(ascii: "<"): bytes.append(contentsOf: "&lt;".utf8)
            case UInt8(ascii: ">"): bytes.append(contentsOf: "&gt;".utf8)
            case UInt8(ascii: "&"): bytes.append(contentsOf: "&amp;".utf8)
            case UInt8(ascii: "\""): bytes.append(contentsOf: "&quot;".utf8)
            default: bytes.append(b)
            }
        }
    }
}
