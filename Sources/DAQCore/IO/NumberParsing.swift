/// ASCII digits → numbers, from bytes, without building a `String` first.
public enum NumberParsing {
    /// Parses a decimal integer; `nil` when the bytes are not one or overflow.
    public static func int64(_ bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
        var i = 0
        var negative = false
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
            negative = bytes[i] == UInt8(ascii: "-")
            i += 1
        }
        guard i < bytes.count else { return nil }
        var v: Int64 = 0
        while i < bytes.count {
            let d = bytes[i] &- 48
            guard d < 10 else { return nil }
            let (m, o1) = v.multipliedReportingOverflow(by: 10)
            let (a, o2) = m.addingReportingOverflow(Int64(d))
            if o1 || o2 { return nil }
            v = a
            i += 1
        }
        return negative ? -v : v
    }

    /// Parses a decimal floating-point number with the standard library's correctly rounded
    /// parser; `nil` when the bytes are not a number.
    public static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        guard !bytes.isEmpty, bytes.count < 64 else {
            return bytes.isEmpty ? nil : Double(String(decoding: bytes, as: UTF8.self))
        }
        // Short texts are stored inline in the String: no heap allocation.
        return Double(String(decoding: bytes, as: UTF8.self))
    }
}
