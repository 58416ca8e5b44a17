import DAQCore

/// What both BLE sources emit: one data sample per advertising report, with the fields the
/// decoders write. A report has only the fields its data carries; service data goes under
/// `service_data.<UUID>`, whose names no configuration knows, so they join when first seen.
enum BLEOutput {
    /// Written once per report after everything its AD structures gave.
    private static let gathered: [ReportField] = [.services, .frames, .errors, .data]

    /// The fields in the order one report writes them: its own, its AD structures' and beacon
    /// frames', the configured decoders', then what is gathered over the whole data.
    static func fields(custom: [ManufacturerDecoder]) -> [FieldDescriptor] {
        var d = StreamDescriptor(fields: ReportField.allCases.filter { !gathered.contains($0) }.map(\.descriptor))
        for decoder in custom {
            for f in decoder.outputFields {
                // Two decoders may write one name, an integer and a scaled double.
                if let old = d.field(f.name) {
                    d.set(
                        FieldDescriptor(f.name, old.type.widened(with: f.type), unit: old.unit == f.unit ? f.unit : nil)
                    )
                } else {
                    d.set(f)
                }
            }
        }
        return d.fields + gathered.map(\.descriptor)
    }

    /// The reference `daq plugins describe` prints for both sources.
    static func output(note: String) -> StreamOutput {
        let named = ReportField.allCases.filter { !gathered.contains($0) } + gathered
        var list = named.map { f in
            let d = f.declaration
            return OutputField(f.name, d.type, unit: d.unit, d.summary)
        }
        list.insert(
            contentsOf: [
                OutputField("service_data.<UUID>", .string, "service data of a UUID, hex (added when first seen)"),
                OutputField(
                    "<decoder>.<field>", .double, unitFrom: "the decoder's `unit`",
                    "a `decoders` field: double when scaled or f32, else int"),
            ], at: list.count - gathered.count)
        return StreamOutput(.own, list, note: note)
    }
}

extension ManufacturerDecoder {
    /// The fields this decoder writes, `<name>.<field>`, typed as ``decode(_:at:into:frames:errors:)``
    /// writes them: a double when scaled or a float, else an integer.
    var outputFields: [FieldDescriptor] {
        fields.map { f in
            let type: DAQCore.FieldType = f.scale != nil || f.type == .f32le || f.type == .f32be ? .double : .int
            return FieldDescriptor(name + "." + f.name, type, unit: f.unit)
        }
    }
}
