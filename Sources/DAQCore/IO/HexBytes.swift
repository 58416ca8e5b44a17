/// Hex text to bytes: the one decoder behind every reader of hex (`daq test`'s `hex:` capture
/// lines, the `_bytes` fields of MQTT payloads, captured HCI events).
public enum HexBytes {
    /// The bytes `text` spells: pairs of hex digits, either case, optionally separated by spaces,
    /// tabs or `:` (`3E 1A`, `3e:1a`, `3e1a`).
    /// - Returns: `nil` when the text holds anything else (a sign, `0x`), a separator splits a
    ///   pair, or a digit is left over.
    public static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count / 2)
        var high: UInt8?
        for c in text.utf8 {
            if let digit = value(c) {
                if let h = high {
                    out.append(h << 4 | digit)
                    high = nil
                } else {
                    high = digit
                }
            } else if c == 0x20 || c == 0x09 || c == UInt8(ascii: ":"), high == nil {
                continue
            } else {
                return nil
            }
        }
        return high == nil ? out : nil
    }

    /// The value of one hex digit, `nil` for anything else.
    @inline(__always)
    public static func value(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: return digit &- 0x30
        case 0x41...0x46: return digit &- 0x41 &+ 10
        case 0x61...0x66: return digit &- 0x61 &+ 10
        default: return nil
        }
    }
}
