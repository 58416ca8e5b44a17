import DAQCore

extension RecordDecoder {
    /// What a file of records holds, from its header and first record: the fields with the
    /// types that record gives them (a CSV's empty cell, a JSON `null`: type unknown yet), and
    /// what its timestamps count from. Reads at most `lineLimit` lines.
    static func describe(path: String, decoder: RecordDecoder, timing: RecordTiming, lineLimit: Int = 1000) throws
        -> StreamDescriptor
    {
        var decoder = decoder
        let reader = try LineReader(path: path)
        var first: (meta: Fields, fields: Fields)?
        var lines = 0
        while first == nil, lines < lineLimit {
            lines += 1
            // A bad line is the run's to report, with its policy; here it only ends the look.
            guard (try? reader.nextLine({ line in first = try? decoder.decode(line) })) == .line else { break }
        }
        var d = StreamDescriptor(rate: timing.rate.map(SampleRate.hz) ?? .irregular, timeBase: .run)
        if let header = decoder.csvHeader {
            for name in header where !SampleJSON.metadataKeys.contains(name) || name == timing.timeField {
                d.fields.append(FieldDescriptor(name, first?.fields[name].flatMap(FieldType.init(of:)) ?? .any))
            }
        } else if let first {
            for (name, value) in first.fields.pairs {
                d.fields.append(FieldDescriptor(name, FieldType(of: value) ?? .any))
            }
        }
        if let first { d.timeBase = timing.timeBase(of: first) }
        return d
    }

    /// The CSV header once read; `nil` for JSON Lines.
    var csvHeader: [String]? { format == .csv ? header : nil }
}

extension RecordTiming {
    /// What timestamps placed by ``place(meta:fields:startDate:)`` count from, judged by
    /// `record`: a time before 2001 counts from the recording's start, not from 1970.
    func timeBase(of record: (meta: Fields, fields: Fields)) -> TimeBase {
        func own(_ t: Double?) -> TimeBase { (t ?? 0) >= 1e9 ? .recorded : .elapsed }
        if let timeField, let t = record.fields[timeField]?.doubleValue { return own(t) }
        if record.meta["uptime"]?.doubleValue != nil {
            return record.meta["timestamp"]?.doubleValue == nil ? .run : own(record.meta["timestamp"]?.doubleValue)
        }
        if let ts = record.meta["timestamp"]?.doubleValue { return own(ts) }
        return .run
    }
}
