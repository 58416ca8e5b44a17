/// CSV cells written straight into a byte buffer: quoted only when they hold a delimiter, a
/// quote or a line break.
public enum CSVText {
    /// Appends a value as one cell: null is empty, numbers shortest, nested values as JSON.
    public static func append(_ v: Value, to out: inout [UInt8]) {
        switch v {
        case .null: break
        case .string(let s): appendCell(s, to: &out)
        case .double(let d): JSONEncoding.appendDouble(d, to: &out)
        case .int(let i): NumberFormatting.appendInt(i, to: &out)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        default:
            var json: [UInt8] = []
            JSONEncoding.append(v, to: &json)
            appendCell(String(decoding: json, as: UTF8.self), to: &out)
        }
    }

    /// Appends text as one cell, quoting it when needed.
    /// `s` as one CSV cell: quoted when it holds a comma, quote or newline.
    public static func cell(_ s: String) -> String {
        var out: [UInt8] = []
        appendCell(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    public static func appendCell(_ s: String, to out: inout [UInt8]) {
        let needsQuotes = s.utf8.contains {
            $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D
        }
        guard needsQuotes else {
            out.append(contentsOf: s.utf8)
            return
        }
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            if b == UInt8(ascii: "\"") { out.append(b) }
            out.append(b)
        }
        out.append(UInt8(ascii: "\""))
    }
}
