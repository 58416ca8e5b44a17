/// The form a barcode id is matched in: GS1 keys are stored as GTIN-14, and a scanner sends an
/// EAN-13, UPC-A or EAN-8 as it is printed, so `4006381333931` must find `04006381333931`.
enum BarcodeKey {
    /// `id` as a GTIN-14 when it is 8, 12, 13 or 14 digits with a right GS1 check digit;
    /// otherwise `id` unchanged (a serial, a URL, a code that is no GTIN).
    static func matched(_ id: String) -> String {
        let digits = Array(id.utf8)
        guard [8, 12, 13, 14].contains(digits.count), digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
            return id
        }
        // Mod 10 over the digits before the check digit, weights 3 and 1 from the right.
        var sum = 0
        for (i, d) in digits.dropLast().reversed().enumerated() { sum += Int(d - 0x30) * (i % 2 == 0 ? 3 : 1) }
        guard (10 - sum % 10) % 10 == Int(digits[digits.count - 1] - 0x30) else { return id }
        return String(repeating: "0", count: 14 - digits.count) + id
    }
}
