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
        @Setting("The field holding the code (an AIM identifier is read and stripped).") var field = "code"
        @Setting(
            "auto: GS1 symbologies, and codes without one that read as valid element strings; symbology: GS1 symbologies only; always: every code. In every mode an EAN/UPC/ITF-14 code, or 8, 12, 13 or 14 digits with a right check digit, gives gtin (14 digits)."
        )
        var detect = GS1Detection.auto
        @Setting("Older form: true is detect: always, false is detect: symbology.") var assumeGS1: Bool?

        public init() {}

        /// The detection in force: the older `assume_gs1` stands for a `detect`.
        var detection: GS1Detection { assumeGS1.map { $0 ? .always : .symbology } ?? detect }

        public func validate() throws {
            if let assume = assumeGS1, $detect.isWritten {
                throw $assumeGS1.issue(
                    "give detect or assume_gs1, not both (assume_gs1: \(assume) is detect: \(assume ? "always" : "symbology"))"
                )
            }
        }
    }

    public static let typeName = "barcode.gs1"
    public static let summary =
        "Parses GS1 element strings and Digital Link URIs into fields (gtin, batch_lot, expiry_date, …)."
    public static let output = GS1Output.output

    static let gs1Symbologies: Set<String> = [
        "gs1-128", "gs1-datamatrix", "gs1-qr", "gs1-databar", "gs1-aztec", "gs1-dotcode",
    ]

    private let config: Configuration

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
    }

    /// The elements codes have given so far, in the order they first came: declared with their
    /// types and units from the AI table as they come, not all 228 ahead (a scan log's CSV header
    /// or a database table would be mostly empty columns).
    private var elements: [FieldDescriptor] = []

    /// The input's fields, the elements met so far, then `gs1` and `gs1_error`.
    public func describe(input: StreamDescriptor, context: PluginContext) throws -> StreamDescriptor {
        input.setting(elements + GS1Output.always)
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
        declareNewElements(in: batch, context: context)
    }

    /// Declares the elements `batch` brings that no code brought before, before it goes out, so
    /// they come with their types and units (a field the table does not know is typed by the
    /// engine from its values).
    private func declareNewElements(in batch: Batch, context: StageContext) {
        let new = batch.columns.compactMap { c -> FieldDescriptor? in
            guard let f = GS1Output.byName[c.name], !elements.contains(where: { $0.name == f.name }),
                context.inputDescriptor?.field(c.name) == nil
            else { return nil }
            return f
        }
        guard !new.isEmpty else { return }
        elements += new
        if let current = context.outputDescriptor { context.declare(current.setting(new)) }
    }

    /// The fields a code adds, or `nil` when it carries nothing GS1.
    func parse(_ code: String, symbology: String?, today: Date) -> Fields? {
        GS1Reading(detect: config.detection).fields(code, symbology: symbology, today: today)
    }
}
