/// Decimal text → `Double`, exactly as `strtod` would, fast for the common case.
///
/// Numbers with at most 15 significant digits and a small exponent (all of a sensor's CSV)
/// convert exactly with one multiplication or division of two exactly representable doubles
/// (Clinger's fast path); anything else falls back to the standard library's parser.
public enum FastDouble {
    @usableFromInline static let powers: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// Parses the bytes (spaces around the number allowed); `nil` when they are not a number.
    /// NaN and infinity are read in the spellings ``NonFinite/parse(_:)`` accepts, and only those.
    @inlinable
    public static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var i = 0
        let n = bytes.count
        // Cells may carry spaces around the number.
        var end = n
        while i < end, bytes[i] == 0x20 { i += 1 }
        while end > i, bytes[end - 1] == 0x20 { end -= 1 }
        guard i < end else { return nil }
        let begin = i
        var negative = false
        if bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0
        var digits = 0
        var scale = 0
        var sawDigit = false
        while i < end, bytes[i] &- 48 < 10 {
            if digits < 19 {
                mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
                if mantissa > 0 { digits += 1 }
            } else {
                scale += 1
            }
            sawDigit = true
            i += 1
        }
        if i < end, bytes[i] == UInt8(ascii: ".") {
            i += 1
            while i < end, bytes[i] &- 48 < 10 {
                if digits < 19 {
                    mantissa = mantissa &* 10 &+ UInt64(bytes[i] &- 48)
                    if mantissa > 0 { digits += 1 }
                    scale -= 1
                }
                sawDigit = true
                i += 1
            }
        }
        // Without a digit it is NaN or infinity as other tools spell them, or no number.
        guard sawDigit else { return NonFinite.parse(UnsafeBufferPointer(rebasing: bytes[begin..<end])) }
        if i < end, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            var expNegative = false
            if i < end, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                expNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            var e = 0
            var expDigits = 0
            while i < end, bytes[i] &- 48 < 10 {
                if e < 10_000 { e = e * 10 + Int(bytes[i] &- 48) }
                expDigits += 1
                i += 1
            }
            guard expDigits > 0 else { return nil }
            scale += expNegative ? -e : e
        }
        guard i == end else { return nil }
        if digits <= 15 && scale >= -22 && scale <= 22 {
            var value = Double(mantissa)
            if scale < 0 { value /= powers[-scale] } else if scale > 0 { value *= powers[scale] }
            return negative ? -value : value
        }
        return slow(bytes, from: 0, to: n)
    }

    @usableFromInline
    static func slow(_ bytes: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Double? {
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[from..<to]), as: UTF8.self)
        return Double(text.trimmingCharacters(in: " "))
    }
}

extension String {
    fileprivate func trimmingCharacters(in char: Character) -> String {
        var s = Substring(self)
        while s.first == char { s = s.dropFirst() }
        while s.last == char { s = s.dropLast() }
        return String(s)
    }
}
