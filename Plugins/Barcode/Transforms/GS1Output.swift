import DAQCore

/// The fields `barcode.gs1` may add, declared from the AI table it parses with, so a field
/// exists in the descriptor before the first code that has it.
enum GS1Output {
    /// One field per element name in the order of the AI table (the AIs of a range differing
    /// only in decimals share one), an amount's currency after it, then `gs1` and `gs1_error`.
    static let fields: [FieldDescriptor] = {
        var d = StreamDescriptor()
        func add(_ f: FieldDescriptor) {
            guard let old = d.field(f.name) else { return d.set(f) }
            // 8005 PRICE PER UNIT is text, 395n PRICE/UoM a number: one name, either type.
            d.set(FieldDescriptor(f.name, old.type.widened(with: f.type), unit: old.unit == f.unit ? f.unit : nil))
        }
        for line in AITable.text.split(separator: "\n") {
            guard let range = AIEntry.parse(line) else { continue }
            for ai in range.ais {
                let e = range.specialized(to: ai)
                add(FieldDescriptor(e.name, type(of: e), unit: unit(of: e)))
                if e.hasCurrency { add(FieldDescriptor(e.name + "_currency", .string)) }
            }
        }
        return d.fields + [FieldDescriptor("gs1", .object), FieldDescriptor("gs1_error", .string)]
    }()

    /// The fields every GS1 reading may carry, whatever its code: declared from the start.
    static let always = [FieldDescriptor("gs1", .object), FieldDescriptor("gs1_error", .string)]

    /// Each element's field by name, for declaring it when a code first brings it.
    static let byName: [String: FieldDescriptor] = Dictionary(
        fields.filter { f in !always.contains { $0.name == f.name } }.map { ($0.name, $0) },
        uniquingKeysWith: { a, _ in a })

    /// The reference `daq plugins describe` prints; ``fields`` is the full list.
    static let output = StreamOutput(
        .input,
        [
            OutputField("gtin", .string, "the GTIN, 14 digits (AI 01, or an EAN/UPC/ITF-14 read)"),
            OutputField(
                "<element>", .string, unitFrom: "the AI's (kg, m, l, …)",
                "each valid element by name (expiry_date, batch_lot, net_weight_kg, …): dates as ISO text, measures and amounts as doubles, other data as text; <element>_currency for 391n/393n"
            ),
            OutputField("gs1", .object, "every element by AI as it stands in the code"),
            OutputField("gs1_error", .string, "what is wrong, with its offset"),
        ],
        note: "the input's fields, then those a code's GS1 data gives")

    /// The type ``ComponentCheck/value(_:_:today:currency:)`` gives the element: text for a
    /// date, a double for a measure or an amount, text otherwise.
    private static func type(of e: AIEntry) -> DAQCore.FieldType {
        let checks = e.components.first?.checks ?? []
        if checks.contains(where: { $0.hasPrefix("yymmd") || $0 == "yyyymmdd" }) { return .string }
        return e.decimals == nil ? .string : .double
    }

    /// A measure's unit, from its title: `NET WEIGHT (kg)` is in kg.
    private static func unit(of e: AIEntry) -> String? {
        guard e.decimals != nil else { return nil }
        switch e.title {
        case "KG PER m²": return "kg/m²"
        case "PRCNT OFF": return "%"
        default: break
        }
        guard let open = e.title.firstIndex(of: "("), let close = e.title[open...].firstIndex(of: ")") else {
            return nil
        }
        let unit = e.title[e.title.index(after: open)..<close]
        return String(unit.hasSuffix(".") ? unit.dropLast() : unit)
    }
}
