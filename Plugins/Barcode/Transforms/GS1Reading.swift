import DAQCore
import Foundation

/// What `barcode.gs1` makes of one code: the rules of ``GS1Detection`` in one place.
///
/// The order matters. A GS1 symbology (or the `(01)…` form) is parsed whatever it holds, errors
/// and all. Next, a code that is a GTIN by its symbology (EAN/UPC, ITF-14) or by its length and
/// check digit (8, 12, 13 or 14 digits) stays a GTIN: `4006381333931` is an EAN-13, never
/// AI (400) with `6381333931`. Only then may a code be read as element strings.
struct GS1Reading {
    var detect: GS1Detection

    /// Symbologies whose data is a GTIN (UPC-E once expanded).
    static let gtinSymbologies: Set<String> = ["ean-13", "ean-8", "upc-a", "upc-e", "itf-14"]

    /// The fields `code` adds, or `nil` when it carries nothing GS1.
    /// - Parameters:
    ///   - symbology: the scan's `symbology` (`unknown` or absent when the scanner sent no AIM
    ///     identifier and length and check digit did not tell).
    func fields(_ code: String, symbology given: String?, today: Date) -> Fields? {
        var bytes = Array(code.utf8)
        var symbology = given == "unknown" ? nil : given
        // A code that still carries its AIM identifier (a log another tool wrote).
        if symbology == nil, bytes.first == UInt8(ascii: "]") {
            let id = SymbologyIdentifier.identify(bytes)
            if id.name != "unknown" {
                symbology = id.name
                bytes = id.data
            }
        }
        let text = symbology == nil || bytes.count == code.utf8.count ? code : String(decoding: bytes, as: UTF8.self)
        let isGS1 = symbology.map(GS1Transform.gs1Symbologies.contains) == true
        if DigitalLink.isCandidate(text) {
            let data = DigitalLink.parse(text, today: today)
            // A URL that is no Digital Link (no primary key) is just a URL.
            return data.elements.isEmpty && !isGS1 ? nil : data.fields()
        }
        if isGS1 || text.hasPrefix("(") { return ElementStringParser.parse(text, today: today).fields() }
        if let gtin = Self.gtinFields(bytes, symbology: symbology) { return gtin }
        switch detect {
        case .symbology:
            return nil
        case .always:
            return ElementStringParser.parse(text, today: today).fields()
        case .auto:
            // A symbology that names what the code is (Code 128 without FNC1, a plain QR) is believed.
            guard symbology == nil else { return nil }
            let data = ElementStringParser.parse(text, today: today)
            return data.errors.isEmpty && !data.elements.isEmpty ? data.fields() : nil
        }
    }

    /// `gtin` (14 digits, as GS1 writes keys) for an EAN/UPC/ITF-14 read, or for any code of 8,
    /// 12, 13 or 14 digits with a right check digit; `nil` for anything else.
    static func gtinFields(_ bytes: [UInt8], symbology: String?) -> Fields? {
        let inferred = SymbologyIdentifier.infer(bytes)
        var f = Fields()
        if inferred != "unknown" {
            // Length and check digit make a GTIN; the scanner's own symbology, when it names one,
            // decides between readings (EAN-8 or UPC-E).
            let name = symbology.map(gtinSymbologies.contains) == true ? symbology! : inferred
            let gtin = SymbologyIdentifier(name: name, isGS1: false, aim: nil, data: bytes).gtin
            f["gtin"] = gtin.map(Value.string) ?? .null
            return f
        }
        guard let symbology, gtinSymbologies.contains(symbology) else { return nil }
        // The scanner says EAN/UPC, but the data is no valid GTIN: keep what can be kept, say why.
        let digits = bytes.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
        guard digits, [8, 12, 13, 14].contains(bytes.count) else {
            f["gs1_error"] = .string(
                "offset 0: \(symbology) data must be 8, 12, 13 or 14 digits, found '\(Self.shown(bytes.prefix(20)))'"
            )
            return f
        }
        if let gtin = SymbologyIdentifier(name: symbology, isGS1: false, aim: nil, data: bytes).gtin {
            f["gtin"] = .string(gtin)
        }
        f["gs1_error"] = .string("offset \(bytes.count - 1): check digit does not match")
        return f
    }

    /// Bytes as text for a message, control and non-ASCII bytes escaped (`\x1D`).
    static func shown(_ bytes: ArraySlice<UInt8>) -> String {
        var out = ""
        for b in bytes {
            if b >= 0x20 && b < 0x7F {
                out.unicodeScalars.append(UnicodeScalar(b))
            } else {
                let hex = String(b, radix: 16, uppercase: true)
                out += "\\x" + (hex.count < 2 ? "0" : "") + hex
            }
        }
        return out
    }
}
