import DAQCore
import Foundation

/// Parses the GS1 data in scanned codes into named fields: element strings of GS1-128, GS1
/// DataMatrix, GS1 QR and DataBar reads, `(01)…` text, and GS1 Digital Link URIs; EAN/UPC
/// reads get their `gtin`. A code that is not valid GS1 keeps its raw `code` and gains a
/// `gs1_error` naming the reason and the offset.
public final class GS1Transform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        var field = "code"
        var assumeGS1 = false

        enum CodingKeys: String, CodingKey {
            case field
            case assumeGS1 = "assume_gs1"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            field = try c.decodeIfPresent(String.self, forKey: .field) ?? "code"
            assumeGS1 = try c.decodeIfPresent(Bool.self, forKey: .assumeGS1) ?? false
        }
    }

    public static let typeName = "barcode.gs1"
    public static let summary = "Parses GS1 element strings and Digital Link URIs into fields (gtin, batch_lot, expiry_date, …)."
    public static let configKeys: [ConfigKey] = [
        ConfigKey("field", "string", default: "code", "The field holding the code (AIM identifier already stripped)."),
        ConfigKey("assume_gs1", "bool", default: "false", "Parse every code as element strings, even without a GS1 symbology."),
    ]

    static let gs1Symbologies: Set<String> = ["gs1-128", "gs1-datamatrix", "gs1-qr", "gs1-databar", "gs1-aztec", "gs1-dotcode"]

    private let config: Configuration

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
    }

    public func process(_ batch: inout Batch, context: StageContext) throws {
        guard batch.column(config.field) != nil else { return }
        let today = Date()
        var out = Batch(stream: batch.stream, capacity: batch.count)
        for i in 0..<batch.count {
            var s = batch[i]
            if case .string(let code)? = s[config.field], let parsed = parse(code, symbology: s["symbology"]?.stringValue, today: today) {
                for (k, v) in parsed.pairs { s[k] = v }
            }
            out.append(s)
        }
        batch = out
    }

    /// The fields a code adds, or `nil` when it carries nothing GS1.
    func parse(_ code: String, symbology: String?, today: Date) -> Fields? {
        if DigitalLink.isCandidate(code) {
            let data = DigitalLink.parse(code, today: today)
            // A URL that is no Digital Link (no primary key) is just a URL.
            return data.elements.isEmpty && symbology.map(Self.gs1Symbologies.contains) != true ? nil : data.fields()
        }
        if config.assumeGS1 || code.hasPrefix("(") || symbology.map(Self.gs1Symbologies.contains) == true {
            return ElementStringParser.parse(code, today: today).fields()
        }
        let id = SymbologyIdentifier(
            name: symbology ?? SymbologyIdentifier.infer(Array(code.utf8)), isGS1: false, aim: nil, data: Array(code.utf8))
        guard let gtin = id.gtin else { return nil }
        var f = Fields()
        f["gtin"] = .string(gtin)
        if !Mod10.isValid(gtin) { f["gs1_error"] = .string("offset \(code.utf8.count - 1): check digit does not match") }
        return f
    }
}
