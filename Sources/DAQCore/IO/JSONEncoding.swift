/// Writes values as JSON text straight into a byte buffer.
///
/// Encoders on the hot path append bytes; they never build an intermediate `String` per field
/// or go through `JSONSerialization`.
public enum JSONEncoding {
    /// Appends `value` as JSON.
    public static func append(_ value: Value, to out: inout [UInt8]) {
        switch value {
        case .null: out.append(contentsOf: "null".utf8)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .int(let i): NumberFormatting.appendInt(i, to: &out)
        case .double(let d): appendDouble(d, to: &out)
        case .string(let s): appendString(s, to: &out)
        case .bytes(let b):
            // Raw bytes travel as a hex string: readable, and unambiguous to parse back.
            out.append(UInt8(ascii: "\""))
            NumberFormatting.appendHex(b, to: &out)
            out.append(UInt8(ascii: "\""))
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                append(v, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let f):
            out.append(UInt8(ascii: "{"))
            for (i, (k, v)) in f.pairs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendString(k, to: &out)
                out.append(UInt8(ascii: ":"))
                append(v, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Appends a double; NaN and infinities, which JSON cannot hold, become `null`.
    public static func appendDouble(_ d: Double, to out: inout [UInt8]) {
        guard d.isFinite else {
            out.append(contentsOf: "null".utf8)
            return
        }
        NumberFormatting.appendShortest(d, to: &out)
    }

    /// Appends a quoted, escaped JSON string.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in s.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: [92, 34])
            case UInt8(ascii: "\\"): out.append(contentsOf: [92, 92])
            case 0x0A: out.append(contentsOf: [92, UInt8(ascii: "n")])
            case 0x0D: out.append(contentsOf: [92, UInt8(ascii: "r")])
            case 0x09: out.append(contentsOf: [92, UInt8(ascii: "t")])
            case 0..<0x20:
                out.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48])
                NumberFormatting.appendHex([byte], to: &out, uppercase: true)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
