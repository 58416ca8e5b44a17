import DAQCore

extension EpochMetric {
    /// The metric's field as epoch samples carry it.
    var descriptor: FieldDescriptor {
        switch self {
        case .enmo: return FieldDescriptor(field, .double, unit: "mg", label: "ENMO")
        case .mad: return FieldDescriptor(field, .double, unit: "mg", label: "MAD")
        case .anglez: return FieldDescriptor(field, .double, unit: "°", label: "z-angle")
        }
    }
}

extension EpochConfiguration {
    /// The fields every epoch sample carries besides its metrics.
    static let countFields = [
        OutputField("samples", .int, "samples that went into the epoch"),
        OutputField("wear", .double, "the fraction of them worn (nonwear not true), 0 to 1"),
        OutputField("partial", .bool, "true only for the last epoch, which the end of input cut short"),
    ]

    /// What an epoch transform declares: its metric first, then the others `also` can add.
    static func output(primary: EpochMetric) -> StreamOutput {
        let metrics = [primary] + EpochMetric.allCases.filter { $0 != primary }
        let fields = metrics.map { m in
            OutputField(
                m.field, .double, unit: m.descriptor.unit,
                m == primary ? "the epoch's \(m.rawValue)" : "with also: [\(m.rawValue)]")
        }
        return StreamOutput(
            .own, fields + countFields,
            note: "one sample per epoch, at 1/epoch Hz, stamped with its start; the input's time base and zone")
    }

    /// One epoch sample per epoch of the input's stream: the metrics asked for, then the counts;
    /// the input's time base, zone and origin; 1/epoch Hz.
    func describe(input: StreamDescriptor, primary: EpochMetric) -> StreamDescriptor {
        var d = input
        d.fields = metrics(primary: primary).map(\.descriptor) + Self.countFields.map(\.descriptor)
        d.rate = .every(epoch.value)
        return d
    }
}
