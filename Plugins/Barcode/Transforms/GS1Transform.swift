import DAQCore
import Foundation

/// Parses the GS1 data in scanned codes into named fields: element strings of GS1-128, GS1
/// DataMatrix, GS1 QR and DataBar reads, of codes without a symbology identifier that read as
/// valid element strings (`detect: auto`), `(01)…` text, and GS1 Digital Link URIs. EAN/UPC
/// and ITF-14 reads, and any other 8, 12, 13 or 14-digit code with a right check digit, get
/// their `gtin` as 14 digits. A code that is not valid GS1 keeps its raw `code` and gains a
/// `gs1_error` naming the reason and the offset.
public final class GS1Transform: TransformPlugin {
    public struct Configuration: PluginConfiguration {
        var field = "code"
        var detect = GS1Detection.auto

        enum CodingKeys: String, CodingKey {
            case field, detect
            case assumeGS1 = "assume_gs1"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            field = try c.decodeIfPresent(String.self, forKey: .field) ?? "code"
            let detect = try c.decodeIfPresent(GS1Detection.self, forKey: .detect)
            // The older switch: true parsed every code, false only GS1 symbologies.
            if let assume = try c.decodeIfPresent(Bool.self, forKey: .assumeGS1) {
                guard detect == nil else {
                    throw ConfigIssue(
                        key: "assume_gs1",
                        "give detect or assume_gs1, not both (assume_gs1: \(assume) is detect: \(assume ? "always" : "symbology"))"
                    )
                }
                self.detect = assume ? .always : .symbology
            } else {
                self.detect = detect ?? .auto
            }
        }
    }

    public static let typeName = "barcode.gs1"
    public static let summary =
        "Parses GS1 element strings and Digital Link URIs into fields (gtin, batch_lot, expiry_date, …)."
    public static let configKeys: [ConfigKey] = [
        ConfigKey(
            "field", "string", default: "code", "The field holding the code (an AIM identifier is read and stripped)."),
        ConfigKey(
            "detect", GS1Detection.choices, default: "auto",
            "auto: GS1 symbologies, and codes without one that read as valid element strings; symbology: GS1 symbologies only; always: every code. In every mode an EAN/UPC/ITF-14 code, or 8, 12, 13 or 14 digits with a right check digit, gives gtin (14 digits)."
        ),
        ConfigKey("assume_gs1", "bool", "Older form: true is detect: always, false is detect: symbology."),
    ]

    static let gs1Symbologies: Set<String> = [
        "gs1-128", "gs1-datamatrix", "gs1-qr", "gs1-databar", "gs1-aztec", "gs1-dotcode",
    ]

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
            if case .string(let code)? = s[config.field],
                let parsed = parse(code, symbology: s["symbology"]?.stringValue, today: today)
            {
                for (k, v) in parsed.pairs { s[k] = v }
            }
            out.append(s)
        }
        batch = out
    }

    /// The fields a code adds, or `nil` when it carries nothing GS1.
    func parse(_ code: String, symbology: String?, today: Date) -> Fields? {
        GS1Reading(detect: config.detect).fields(code, symbology: symbology, today: today)
    }
}
