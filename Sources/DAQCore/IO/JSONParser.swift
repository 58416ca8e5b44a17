/// A JSON parser into ``Value`` that keeps object keys in their order, which loggers and CSV
/// headers depend on (Foundation's parsers return unordered dictionaries).
public struct JSONParser {
    /// A syntax error at a byte offset.
    public struct SyntaxError: Error, CustomStringConvertible {
        public var offset: Int
        public var message: String
        public var description: String { "\(message) at byte \(offset + 1)" }
    }

    private let bytes: UnsafeBufferPointer<UInt8>
    private let allowNonFinite: Bool
    private var i = 0

    private init(_ bytes: UnsafeBufferPointer<UInt8>, allowNonFinite: Bool) {
        self.bytes = bytes
        self.allowNonFinite = allowNonFinite
    }

    /// Parses one JSON document (surrounding whitespace allowed).
    /// - Parameters:
    ///   - allowNonFinite: also read `NaN`, `Infinity` and `-Infinity` as numbers, as Python's
    ///     `json` and JavaScript write them (not JSON, but what data files hold).
    /// - Throws: ``SyntaxError``.
    public static func parse<C: Collection>(_ data: C, allowNonFinite: Bool = false) throws -> Value
    where C.Element == UInt8 {
        let run: (UnsafeBufferPointer<UInt8>) throws -> Value = { buffer in
            var p = JSONParser(buffer, allowNonFinite: allowNonFinite)
            p.skipSpace()
            let v = try p.value(depth: 0)
            p.skipSpace()
            if p.i != buffer.count { throw p.error("unexpected text after the JSON value") }
            return v
        }
        if let r = try data.withContiguousStorageIfAvailable(run) { return r }
        return try Array(data).withUnsafeBufferPointer(run)
    }

    private func error(_ message: String) -> SyntaxError { SyntaxError(offset: i, message: message) }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
    }

    private mutating func value(depth: Int) throws -> Value {
        guard depth < 512 else { throw error("nesting too deep") }
        guard i < bytes.count else { throw error("unexpected end of input") }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object(depth: depth)
        case UInt8(ascii: "["): return try array(depth: depth)
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "N") where allowNonFinite:
            try literal("NaN")
            return .double(.nan)
        case UInt8(ascii: "I") where allowNonFinite:
            try literal("Infinity")
            return .double(.infinity)
        case UInt8(ascii: "-") where allowNonFinite && i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "I"):
            try literal("-Infinity")
            return .double(-.infinity)
        default: return try number()
        }
    }

    private mutating func literal(_ word: StaticString) throws {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw error("unexpected end of input") }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw error("invalid literal") }
        i += n
    }

    private mutating func object(depth: Int) throws -> Value {
        i += 1
        var fields = Fields()
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") {
            i += 1
            return .object(fields)
        }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':'") }
            i += 1
            skipSpace()
            fields[key] = try value(depth: depth + 1)
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of input in an object") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard bytes[i] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
            i += 1
            return .object(fields)
        }
    }

    private mutating func array(depth: Int) throws -> Value {
        i += 1
        var items: [Value] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") {
            i += 1
            return .array(items)
        }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of input in a list") }
            if bytes[i] == UInt8(ascii: ",") {
                i += 1
                continue
            }
            guard bytes[i] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
            i += 1
            return .array(items)
        }
    }

    private mutating func string() throws -> String {
        i += 1
        let start = i
        var simple = true
        while i < bytes.count, bytes[i] != UInt8(ascii: "\"") {
            if bytes[i] == UInt8(ascii: "\\") {
                simple = false
                i += 1
            } else if bytes[i] < 0x20 {
                throw error("control character in a string")
            }
            i += 1
        }
        guard i < bytes.count else { throw error("unterminated string") }
        defer { i += 1 }
        if simple { return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self) }
        var out: [UInt8] = []
        var k = start
        while k < i {
            let b = bytes[k]
            guard b == UInt8(ascii: "\\") else {
                out.append(b)
                k += 1
                continue
            }
            k += 1
            switch bytes[k] {
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "u"):
                var code = try hex4(k + 1)
                k += 4
                if (0xD800..<0xDC00).contains(code), k + 6 < i, bytes[k + 1] == UInt8(ascii: "\\"),
                    bytes[k + 2] == UInt8(ascii: "u")
                {
                    let low = try hex4(k + 3)
                    if (0xDC00..<0xE000).contains(low) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        k += 6
                    }
                }
                let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: out.append(bytes[k])
            }
            k += 1
        }
        return String(decoding: out, as: UTF8.self)
    }

    private func hex4(_ at: Int) throws -> UInt32 {
        guard at + 4 <= bytes.count else { throw SyntaxError(offset: at, message: "truncated \\u escape") }
        var v: UInt32 = 0
        for k in at..<(at + 4) {
            let c = bytes[k]
            let d: UInt32
            switch c {
            case 48...57: d = UInt32(c - 48)
            case 65...70: d = UInt32(c - 55)
            case 97...102: d = UInt32(c - 87)
            default: throw SyntaxError(offset: k, message: "invalid \\u escape")
            }
            v = v * 16 + d
        }
        return v
    }

    private mutating func number() throws -> Value {
        let start = i
        var isInteger = true
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        while i < bytes.count {
            let c = bytes[i]
            if c >= 48 && c <= 57 {
                i += 1
            } else if c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E")
                || c == UInt8(ascii: "+") || c == UInt8(ascii: "-")
            {
                isInteger = false
                i += 1
            } else {
                break
            }
        }
        guard i > start else { throw error("unexpected \(PrintableText.byte(bytes[i]))") }
        let slice = UnsafeBufferPointer(rebasing: bytes[start..<i])
        if isInteger, let n = NumberParsing.int64(slice) { return .int(n) }
        guard let d = NumberParsing.double(slice) else { throw SyntaxError(offset: start, message: "invalid number") }
        return .double(d)
    }
}
