/// The GS1 check digit (ISO/IEC 15420 "mod 10"): digits weighted 3, 1, 3, … from the right,
/// excluding the check digit; the check digit brings the sum to a multiple of 10. One rule for
/// GTIN-8/12/13/14, SSCC, GLN, GSIN, GDTI, GRAI and GSRN.
public enum Mod10 {
    /// The check digit for `digits` (the check digit itself not included); `nil` if a
    /// character is not a digit.
    public static func checkDigit<S: Collection>(for digits: S) -> UInt8? where S.Element == UInt8 {
        var sum = 0
        var weight = 3
        for b in digits.reversed() {
            guard b >= 0x30 && b <= 0x39 else { return nil }
            sum += Int(b - 0x30) * weight
            weight = 4 - weight
        }
        return UInt8((10 - sum % 10) % 10)
    }

    /// Whether the last digit of `digits` is the check digit of the others.
    public static func isValid<S: Collection>(_ digits: S) -> Bool where S.Element == UInt8 {
        guard let last = digits.reversed().first, digits.count >= 2, last >= 0x30 && last <= 0x39,
            let expected = checkDigit(for: digits.dropLast())
        else { return false }
        return expected == last - 0x30
    }

    /// Whether `text` is all digits with a valid check digit.
    public static func isValid(_ text: String) -> Bool { isValid(Array(text.utf8)) }
}
