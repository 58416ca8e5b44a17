/// Bytes from outside (a file, a socket, an HTTP body) shown in a message, never raw.
///
/// A binary file fed to a text reader, or a stray byte on the control socket, would otherwise
/// write control characters and broken UTF-8 to the user's terminal. Text is kept as it is;
/// everything else is escaped as `\xNN` (or `\n`, `\r`, `\t`), and the result is cut at
/// `limit` characters with `…`.
public enum PrintableText {
    /// The longest quotation a message carries.
    public static let defaultLimit = 120

    /// `bytes` as printable text: valid UTF-8 without control characters as it is, every other
    /// byte escaped; at most `limit` characters.
    public static func escaped(_ bytes: some Collection<UInt8>, limit: Int = defaultLimit) -> String {
        let input = Array(bytes.prefix(limit * 4))
        var out = ""
        var count = 0
        var i = 0
        while i < input.count {
            let lead = input[i]
            let length =
                lead < 0x80 ? 1 : lead & 0xE0 == 0xC0 ? 2 : lead & 0xF0 == 0xE0 ? 3 : lead & 0xF8 == 0xF0 ? 4 : 0
            let piece: String
            if length > 0, i + length <= input.count,
                let text = String(validating: input[i..<(i + length)], as: UTF8.self),
                let scalar = text.unicodeScalars.first
            {
                piece = Self.piece(for: scalar)
                i += length
            } else {
                piece = hex(lead)
                i += 1
            }
            guard count + piece.count <= limit else { return out + "…" }
            out += piece
            count += piece.count
        }
        return input.count < bytes.count ? out + "…" : out
    }

    /// `text`'s UTF-8 as ``escaped(_:limit:)`` shows it.
    public static func escaped(_ text: String, limit: Int = defaultLimit) -> String {
        escaped(Array(text.utf8), limit: limit)
    }

    /// `text` safe to print as one line of a terminal or a log, whole: control characters but
    /// tab (line breaks, and ESC, which starts the sequences that clear a screen or retitle a
    /// window), DEL and C1 controls are written `\xNN` or `\u{NN}`; everything else is kept as
    /// it is, so a message that holds none comes back unchanged.
    ///
    /// For text from outside — a topic, a payload snippet, a child's stderr, a file's contents —
    /// on its way to a log line: one such line cannot forge another, or a terminal's screen.
    public static func line(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if needsEscape(scalar) {
                out += scalar.value < 0x80 ? hex(UInt8(scalar.value)) : "\\u{\(String(scalar.value, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// A tab only moves the cursor along the line: it is kept.
    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value)
    }

    /// One byte as a message names it: `'P'` when printable ASCII, else `byte 0x7F`.
    public static func byte(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(hexDigits(byte))"
    }

    private static func piece(for scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\r": return "\\r"
        case "\t": return "\\t"
        case "\\": return "\\\\"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) {
                return scalar.value < 0x80 ? hex(UInt8(scalar.value)) : "\\u{\(String(scalar.value, radix: 16))}"
            }
            return String(Character(scalar))
        }
    }

    private static func hex(_ byte: UInt8) -> String { "\\x" + hexDigits(byte) }

    private static func hexDigits(_ byte: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
