/// Number → ASCII digits without Foundation formatters or `String(format:)`.
public enum NumberFormatting {
    /// Appends a decimal integer.
    public static func appendInt(_ value: Int64, to out: inout [UInt8]) {
        if value < 0 {
            out.append(UInt8(ascii: "-"))
            appendUInt(value == Int64.min ? UInt64(Int64.max) + 1 : UInt64(-value), to: &out)
        } else {
            appendUInt(UInt64(value), to: &out)
        }
    }

    /// Appends a decimal unsigned integer.
    public static func appendUInt(_ value: UInt64, to out: inout [UInt8]) {
        if value < 10 {
            out.append(48 + UInt8(value))
            return
        }
        var digits: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                     UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var n = 0
        var v = value
        withUnsafeMutableBytes(of: &digits) { raw in
            let d = raw.bindMemory(to: UInt8.self)
            while v > 0 {
                d[n] = 48 + UInt8(v % 10)
                v /= 10
                n += 1
            }
            for i in stride(from: n - 1, through: 0, by: -1) { out.append(d[i]) }
        }
    }

    /// Appends a double with exactly `decimals` digits after the point, rounded half away
    /// from zero on the exact binary value (as C's `%.*f` does for all but exact ties).
    public static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        guard value.isFinite else {
            out.append(contentsOf: (value.isNaN ? "nan" : value < 0 ? "-inf" : "inf").utf8)
            return
        }
        let scale = pow10[decimals]
        let scaled = (abs(value) * scale).rounded(.toNearestOrEven)
        if scaled >= 9.0e18 {
            // Beyond Int64: rare in data acquisition; the shortest form is still exact enough.
            appendShortest(value, to: &out)
            return
        }
        var units = UInt64(scaled)
        // Correct the rounding of the multiplication, which can be off by one unit.
        let exact = abs(value) * scale
        if Double(units) - exact > 0.5 { units -= 1 } else if exact - Double(units) > 0.5 { units += 1 }
        if value.sign == .minus { out.append(UInt8(ascii: "-")) }
        let divisor = UInt64(scale)
        appendUInt(units / divisor, to: &out)
        if decimals > 0 {
            out.append(UInt8(ascii: "."))
            var frac = units % divisor
            var digits = [UInt8](repeating: 48, count: decimals)
            var i = decimals - 1
            while i >= 0 {
                digits[i] = 48 + UInt8(frac % 10)
                frac /= 10
                i -= 1
            }
            out.append(contentsOf: digits)
        }
    }

    /// Appends the shortest text that reads back as the same double (Swift's own algorithm).
    public static func appendShortest(_ value: Double, to out: inout [UInt8]) {
        // `description` keeps `3.0` a double when read back; texts up to 15 bytes are stored
        // inline, so this allocates nothing for ordinary values.
        var text = value.description
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// Appends bytes as lowercase (or uppercase) hex.
    public static func appendHex<C: Collection>(_ bytes: C, to out: inout [UInt8], uppercase: Bool = false)
    where C.Element == UInt8 {
        let digits: [UInt8] = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0xF)])
        }
    }

    static let pow10: [Double] = (0...18).map { p in (0..<p).reduce(1.0) { x, _ in x * 10 } }
}
