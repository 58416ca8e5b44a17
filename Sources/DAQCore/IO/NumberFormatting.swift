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
        var digits:
            (
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64,
                UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64
            ) =
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

    /// Appends a double with exactly `decimals` digits after the point (like C's `%.*f`).
    ///
    /// The value is scaled and rounded in binary, so in rare ties the last digit can differ by
    /// one unit from a correctly rounded `printf`; values past 9e18 units use the shortest form.
    /// Digits are produced right to left into a stack buffer and appended at once.
    @inlinable
    public static func appendFixed(_ value: Double, decimals: Int, to out: inout [UInt8]) {
        guard value.isFinite, decimals <= 18 else {
            out.append(contentsOf: (value.isNaN ? "nan" : value < 0 ? "-inf" : "inf").utf8)
            return
        }
        let scaled = (abs(value) * pow10[decimals]).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else {
            appendShortest(value, to: &out)
            return
        }
        var units = UInt64(scaled)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buf in
            var i = 47
            var written = 0
            // Fraction digits, then the point, then at least one integer digit.
            while written < decimals {
                buf[i] = 48 + UInt8(truncatingIfNeeded: units % 10)
                units /= 10
                i -= 1
                written += 1
            }
            if decimals > 0 {
                buf[i] = UInt8(ascii: ".")
                i -= 1
            }
            repeat {
                buf[i] = 48 + UInt8(truncatingIfNeeded: units % 10)
                units /= 10
                i -= 1
            } while units > 0
            if value.sign == .minus {
                buf[i] = UInt8(ascii: "-")
                i -= 1
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buf[(i + 1)...]))
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

    @usableFromInline static let pow10: [Double] = (0...18).map { p in (0..<p).reduce(1.0) { x, _ in x * 10 } }
}
