/// What a code's symbology says about it: from the AIM symbology identifier (ISO/IEC 15424)
/// a scanner prefixes when set to, or inferred from length and check digit.
public struct SymbologyIdentifier: Sendable, Equatable {
    /// A stable name: `gs1-128`, `ean-13`, `upc-a`, `qr`, …, or `unknown`.
    public var name: String
    /// Whether the data is GS1 element strings (or a GS1 Digital Link URI).
    public var isGS1: Bool
    /// The `]Cm` prefix, when there was one.
    public var aim: String?
    /// The data without the prefix.
    public var data: [UInt8]

    /// Names by AIM code character and modifier; `*` stands for any modifier.
    static let table: [String: (String, Bool)] = [
        "C0": ("code-128", false), "C1": ("gs1-128", true), "C2": ("code-128", false), "C4": ("code-128", false),
        "E0": ("ean-13", false), "E1": ("ean-add-on-2", false), "E2": ("ean-add-on-5", false),
        "E3": ("ean-13-add-on", false),
        "E4": ("ean-8", false), "d0": ("datamatrix", false), "d1": ("datamatrix", false),
        "d2": ("gs1-datamatrix", true),
        "d3": ("datamatrix", false), "d4": ("datamatrix", false), "d5": ("datamatrix", false),
        "d6": ("datamatrix", false),
        "Q0": ("qr", false), "Q1": ("qr", false), "Q2": ("qr", false), "Q3": ("gs1-qr", true), "Q4": ("qr", false),
        "Q5": ("gs1-qr", true), "Q6": ("qr", false), "I0": ("itf", false), "I1": ("itf", false), "I3": ("itf", false),
        "A0": ("code-39", false), "A1": ("code-39", false), "A3": ("code-39", false), "A4": ("code-39", false),
        "A7": ("code-39", false), "F0": ("codabar", false), "F1": ("codabar", false), "F2": ("codabar", false),
        "F4": ("codabar", false), "G0": ("code-93", false), "e0": ("gs1-databar", true), "e1": ("gs1-databar", true),
        "L0": ("pdf417", false), "L1": ("pdf417", false), "L2": ("pdf417", false), "z0": ("aztec", false),
        "z1": ("aztec", false), "z3": ("aztec", false), "z4": ("aztec", false), "z5": ("aztec", false),
        "z6": ("aztec", false),
        "z7": ("aztec", false), "z8": ("aztec", false), "z9": ("aztec", false), "zA": ("aztec", false),
        "zB": ("aztec", false),
        "zC": ("gs1-aztec", true), "J1": ("gs1-dotcode", true), "J0": ("dotcode", false), "X0": ("other", false),
        "M0": ("msi", false), "M1": ("msi", false), "S0": ("code-2of5", false), "R0": ("code-2of5", false),
    ]

    /// Classifies `raw` as a scanner delivered it.
    public static func identify(_ raw: [UInt8]) -> SymbologyIdentifier {
        if raw.count >= 3, raw[0] == UInt8(ascii: "]") {
            let key = String(decoding: raw[1...2], as: UTF8.self)
            let aim = "]" + key
            let data = Array(raw[3...])
            if var (name, gs1) = table[key] {
                // EAN-13 beginning with 0 is a UPC-A read by an EAN-capable scanner.
                if key == "E0", data.count == 13, data.first == UInt8(ascii: "0") { name = "upc-a" }
                if key == "I1" && data.count == 14 && Mod10.isValid(data) { name = "itf-14" }
                // A GS1 QR may hold a Digital Link URI instead of element strings.
                if (key == "Q1" || key == "d1") && DigitalLink.isCandidate(String(decoding: data, as: UTF8.self)) {
                    gs1 = true
                }
                return SymbologyIdentifier(name: name, isGS1: gs1, aim: aim, data: data)
            }
            return SymbologyIdentifier(name: "unknown", isGS1: false, aim: aim, data: data)
        }
        return SymbologyIdentifier(name: infer(raw), isGS1: false, aim: nil, data: raw)
    }

    /// EAN-8, UPC-E, UPC-A, EAN-13 and ITF-14 by length and a valid check digit.
    static func infer(_ d: [UInt8]) -> String {
        guard d.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return "unknown" }
        switch d.count {
        case 8:
            if d[0] == 0x30 || d[0] == 0x31, let upcA = expandUPCE(d), Mod10.isValid(upcA) { return "upc-e" }
            return Mod10.isValid(d) ? "ean-8" : "unknown"
        case 12: return Mod10.isValid(d) ? "upc-a" : "unknown"
        case 13: return Mod10.isValid(d) ? "ean-13" : "unknown"
        case 14: return Mod10.isValid(d) ? "itf-14" : "unknown"
        default: return "unknown"
        }
    }

    /// UPC-E (number system, six digits, check digit) expanded to its UPC-A form, by the last
    /// of the six digits as GS1 specifies.
    public static func expandUPCE(_ e: [UInt8]) -> [UInt8]? {
        guard e.count == 8 else { return nil }
        let ns = e[0]
        let x = Array(e[1...6])
        let check = e[7]
        let z = UInt8(ascii: "0")
        var body: [UInt8]
        switch x[5] {
        case UInt8(ascii: "0"), UInt8(ascii: "1"), UInt8(ascii: "2"):
            body = [x[0], x[1], x[5], z, z, z, z, x[2], x[3], x[4]]
        case UInt8(ascii: "3"):
            body = [x[0], x[1], x[2], z, z, z, z, z, x[3], x[4]]
        case UInt8(ascii: "4"):
            body = [x[0], x[1], x[2], x[3], z, z, z, z, z, x[4]]
        default:
            body = [x[0], x[1], x[2], x[3], x[4], z, z, z, z, x[5]]
        }
        return [ns] + body + [check]
    }

    /// The 14-digit GTIN of an EAN/UPC read, for `gtin`.
    public var gtin: String? {
        switch name {
        case "ean-13", "ean-8", "upc-a", "itf-14":
            let digits = name == "upc-a" && data.count == 13 ? Array(data.dropFirst()) : data
            return String(repeating: "0", count: 14 - digits.count) + String(decoding: digits, as: UTF8.self)
        case "upc-e":
            return SymbologyIdentifier.expandUPCE(data).map { "00" + String(decoding: $0, as: UTF8.self) }
        default:
            return nil
        }
    }
}
