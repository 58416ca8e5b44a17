/// Reads the small XML documents of XDF chunks into ``XDFElement``s: elements, text, the five
/// named entities and numeric character references, CDATA; the prolog, comments, processing
/// instructions and a DOCTYPE are read past. Enough for what LabRecorder, pyxdf's test files
/// and `logger.xdf` write, without a dependency on libxml2.
enum XDFXMLParser {
    /// Why a document could not be read, with the byte offset in it.
    struct Failure: Error, CustomStringConvertible {
        var offset: Int
        var problem: String
        var description: String { "XML byte \(offset): \(problem)" }
    }

    /// The document's root element.
    /// - Throws: ``Failure`` for text that is not well-formed where it matters (an unclosed or
    ///   mismatched tag, no root element).
    static func parse(_ bytes: ArraySlice<UInt8>) throws(Failure) -> XDFElement {
        var stack: [XDFElement] = []
        var root: XDFElement?
        var i = bytes.startIndex
        let end = bytes.endIndex
        let base = bytes.startIndex
        func fail(_ problem: String) -> Failure { Failure(offset: i - base, problem: problem) }
        while i < end {
            if bytes[i] != UInt8(ascii: "<") {
                let start = i
                while i < end && bytes[i] != UInt8(ascii: "<") { i += 1 }
                if !stack.isEmpty { stack[stack.count - 1].text += decodeEntities(bytes[start..<i]) }
                continue
            }
            if starts(bytes, at: i, with: "<!--") {
                guard let close = find(bytes, "-->", from: i + 4) else { throw fail("a comment is not closed") }
                i = close + 3
            } else if starts(bytes, at: i, with: "<![CDATA[") {
                guard let close = find(bytes, "]]>", from: i + 9) else { throw fail("a CDATA section is not closed") }
                if !stack.isEmpty {
                    stack[stack.count - 1].text += String(decoding: bytes[(i + 9)..<close], as: UTF8.self)
                }
                i = close + 3
            } else if starts(bytes, at: i, with: "<?") {
                guard let close = find(bytes, "?>", from: i + 2) else {
                    throw fail("a processing instruction is not closed")
                }
                i = close + 2
            } else if starts(bytes, at: i, with: "<!") {
                guard let close = bytes[i...].firstIndex(of: UInt8(ascii: ">")) else {
                    throw fail("a declaration is not closed")
                }
                i = close + 1
            } else if starts(bytes, at: i, with: "</") {
                guard let close = bytes[i...].firstIndex(of: UInt8(ascii: ">")) else {
                    throw fail("an end tag is not closed")
                }
                let name = tagName(bytes[(i + 2)..<close])
                guard let open = stack.popLast() else { throw fail("end tag </\(name)> without a start tag") }
                guard open.name == name else { throw fail("end tag </\(name)> closes <\(open.name)>") }
                i = close + 1
                if stack.isEmpty { root = root ?? open } else { stack[stack.count - 1].children.append(open) }
            } else {
                guard let close = tagEnd(bytes, from: i + 1) else { throw fail("a start tag is not closed") }
                let selfClosing = close > i + 1 && bytes[close - 1] == UInt8(ascii: "/")
                let name = tagName(bytes[(i + 1)..<(selfClosing ? close - 1 : close)])
                guard !name.isEmpty else { throw fail("a tag without a name") }
                let element = XDFElement(name: name)
                i = close + 1
                if selfClosing {
                    if stack.isEmpty { root = root ?? element } else { stack[stack.count - 1].children.append(element) }
                } else {
                    stack.append(element)
                }
            }
        }
        if let open = stack.last { throw Failure(offset: end - base, problem: "<\(open.name)> is not closed") }
        guard let root else { throw Failure(offset: 0, problem: "no element") }
        return root
    }

    /// The name at the start of a tag's inside, before any attribute.
    private static func tagName(_ inside: ArraySlice<UInt8>) -> String {
        let stop = inside.firstIndex { XDFElement.isSpace($0) || $0 == UInt8(ascii: "/") } ?? inside.endIndex
        return String(decoding: inside[inside.startIndex..<stop], as: UTF8.self)
    }

    /// The `>` that ends a start tag, skipping any inside quoted attribute values.
    private static func tagEnd(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
        var quote: UInt8?
        var i = start
        while i < bytes.endIndex {
            let b = bytes[i]
            if let q = quote {
                if b == q { quote = nil }
            } else if b == UInt8(ascii: "\"") || b == UInt8(ascii: "'") {
                quote = b
            } else if b == UInt8(ascii: ">") {
                return i
            }
            i += 1
        }
        return nil
    }

    private static func starts(_ bytes: ArraySlice<UInt8>, at i: Int, with text: StaticString) -> Bool {
        let n = text.utf8CodeUnitCount
        guard i + n <= bytes.endIndex else { return false }
        return text.withUTF8Buffer { pattern in (0..<n).allSatisfy { bytes[i + $0] == pattern[$0] } }
    }

    private static func find(_ bytes: ArraySlice<UInt8>, _ text: StaticString, from start: Int) -> Int? {
        var i = start
        while i < bytes.endIndex {
            if starts(bytes, at: i, with: text) { return i }
            i += 1
        }
        return nil
    }

    /// Text with `&lt;`, `&gt;`, `&amp;`, `&quot;`, `&apos;` and `&#…;` decoded; an unknown
    /// entity is kept as written.
    static func decodeEntities(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            guard raw[i] == UInt8(ascii: "&"), let semi = raw[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else {
                out.append(raw[i])
                i += 1
                continue
            }
            let name = String(decoding: raw[(i + 1)..<semi], as: UTF8.self)
            var scalar: Unicode.Scalar?
            switch name {
            case "lt": scalar = "<"
            case "gt": scalar = ">"
            case "amp": scalar = "&"
            case "quot": scalar = "\""
            case "apos": scalar = "'"
            default:
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    scalar = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
                } else if name.hasPrefix("#") {
                    scalar = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init)
                }
            }
            if let scalar {
                out.append(contentsOf: String(Character(scalar)).utf8)
                i = semi + 1
            } else {
                out.append(raw[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
