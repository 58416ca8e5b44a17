/// One Application Identifier: how its data is laid out and what it is called.
import Foundation

struct AIEntry: Sendable {
    /// One part of the data field.
    struct Component: Sendable {
        enum Charset: Sendable { case numeric, cset82, cset39, base64url }
        var charset: Charset
        var minLength: Int
        var maxLength: Int
        var optional: Bool
        /// Checks named as in the syntax dictionary: `csum`, `yymmd0`, `yymmdd`, `hhmm`, `yymmddhh`, …
        var checks: [String]
    }

    var ai = ""
    /// Every AI of a range line (`3100-3105`), before ``specialized(to:)``.
    var ais: [String] = []
    /// A predefined length: the next AI may follow without an FNC1 separator.
    var predefined = false
    var components: [Component] = []
    var title = ""
    /// A GS1 Digital Link primary key (`/01/…`).
    var isPrimaryKey = false
    /// Implied decimal places of a measure or amount (the AI's last digit).
    var decimals: Int?
    /// The field name: `gtin`, `expiry_date`, `net_weight_kg`, …
    var name = ""

    var maxLength: Int { components.reduce(0) { $0 + $1.maxLength } }
    var minLength: Int { components.reduce(0) { $0 + ($1.optional ? 0 : $1.minLength) } }
    /// Whether the value carries an ISO 4217 currency before the amount (391n, 393n).
    var hasCurrency: Bool { components.first?.checks.contains("iso4217") == true }

    /// Parses one line of ``AITable/text``.
    static func parse(_ line: Substring) -> AIEntry? {
        let parts = line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
        guard let spec = parts.first else { return nil }
        var e = AIEntry()
        e.title = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : ""
        var words = spec.split(separator: " ").map(String.init)
        guard !words.isEmpty else { return nil }
        let range = words.removeFirst()
        if let dash = range.firstIndex(of: "-"), let lo = Int(range[..<dash]),
            let hi = Int(range[range.index(after: dash)...])
        {
            let width = range.distance(from: range.startIndex, to: dash)
            e.ais = (lo...hi).map { String($0).leftPadded(to: width) }
        } else {
            e.ais = [range]
        }
        for w in words {
            if w == "*" {
                e.predefined = true
                continue
            }
            if w.hasPrefix("dlpkey") {
                e.isPrimaryKey = true
                continue
            }
            e.components.append(Self.component(w))
        }
        return e
    }

    private static func component(_ word: String) -> Component {
        var w = Substring(word)
        var optional = false
        if w.hasPrefix("[") {
            optional = true
            w = w.dropFirst()
        }
        var pieces = w.split(separator: ",").map(String.init)
        var head = Substring(pieces.removeFirst())
        if head.hasSuffix("]") { head = head.dropLast() }
        let charset: Component.Charset
        switch head.first {
        case "N": charset = .numeric
        case "Y": charset = .cset39
        case "Z": charset = .base64url
        default: charset = .cset82
        }
        let length = head.dropFirst()
        if length.hasPrefix("..") {
            let max = Int(length.dropFirst(2)) ?? 0
            return Component(charset: charset, minLength: 1, maxLength: max, optional: optional, checks: pieces)
        }
        let n = Int(length) ?? 0
        return Component(charset: charset, minLength: n, maxLength: n, optional: optional, checks: pieces)
    }

    /// The entry for one AI of its range, with its own decimals and name.
    func specialized(to ai: String) -> AIEntry {
        var e = self
        e.ai = ai
        let digits = Array(ai.utf8)
        if ai.count == 4, let first = Int(ai.prefix(2)), (31...36).contains(first) || ai.hasPrefix("39") {
            e.decimals = Int(digits[3] - 0x30)
        }
        e.name = Self.fieldName(ai: ai, title: title)
        return e
    }

    private static let names: [String: String] = [
        "00": "sscc", "01": "gtin", "02": "content_gtin", "10": "batch_lot", "11": "production_date", "12": "due_date",
        "13": "packaging_date", "15": "best_before_date", "16": "sell_by_date", "17": "expiry_date", "20": "variant",
        "21": "serial", "22": "cpv", "235": "tpx", "240": "additional_id", "241": "customer_part_number",
        "242": "made_to_order_variant", "250": "secondary_serial", "251": "reference_to_source", "253": "gdti",
        "255": "gcn",
        "30": "variable_count", "37": "count", "400": "order_number", "401": "ginc", "402": "gsin", "403": "route",
        "410": "ship_to_gln", "411": "bill_to_gln", "412": "purchase_from_gln", "413": "ship_for_gln",
        "414": "location_gln",
        "415": "pay_to_gln", "416": "production_location_gln", "417": "party_gln", "420": "ship_to_postal_code",
        "421": "ship_to_postal_code_iso", "422": "origin_country", "7003": "expiry_date_time",
        "8001": "roll_dimensions",
        "8003": "grai", "8004": "giai", "8006": "itip", "8008": "production_date_time", "8010": "cpid",
        "8011": "cpid_serial",
        "8013": "gmn", "8017": "gsrn_provider", "8018": "gsrn_recipient", "8020": "payment_reference",
        "8200": "product_url",
        "90": "internal",
    ]

    private static let rangeNames: [String: String] = [
        "390": "amount", "391": "amount", "392": "price", "393": "price", "394": "percent_off", "395": "price_per_unit",
    ]

    static func fieldName(ai: String, title: String) -> String {
        if let n = names[ai] { return n }
        if ai.count == 4, let n = rangeNames[String(ai.prefix(3))] { return n }
        if ai.hasPrefix("703") { return "processor_\(ai.suffix(1))" }
        if ai.hasPrefix("723"), let d = Int(ai.suffix(1)) { return "certification_\(d + 1)" }
        if ai.count == 2, ai.hasPrefix("9") { return "internal_\(ai)" }
        var t = title.lowercased()
        var prefix = ""
        if t.hasSuffix(", log") {
            prefix = "logistic_"
            t.removeLast(5)
        }
        var out = ""
        for ch in t {
            switch ch {
            case "²": out.append("2")
            case "³": out.append("3")
            case _ where ch.isLetter || ch.isNumber: out.append(ch)
            default: if !out.isEmpty && out.last != "_" { out.append("_") }
            }
        }
        while out.last == "_" { out.removeLast() }
        return prefix + out
    }
}

extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
