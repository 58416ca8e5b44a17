import DAQCore

/// A stream descriptor as people read it: `daq describe`, `daq tap` and `daq plugins describe`
/// print this one shape.
enum StreamText {
    /// One line: rate, time base and zone, origin.
    static func summary(_ d: StreamDescriptor) -> String {
        var parts: [String] = []
        parts.append(d.rate.hz.map { "\(number($0)) Hz" } ?? "irregular")
        switch d.timeBase {
        case .recorded: parts.append("recorded time" + (d.timeZone.map { " (\($0))" } ?? " (zone unknown, UTC)"))
        case .elapsed: parts.append("time since the recording began")
        case .run: parts.append("run clock" + (d.timeZone.map { " (\($0))" } ?? ""))
        }
        let o = d.origin
        var from: [String] = []
        if let plugin = o.plugin { from.append(plugin) }
        if let device = o.device { from.append(device + (o.serial.map { " #\($0)" } ?? "")) }
        if o.device == nil, let serial = o.serial { from.append("#\(serial)") }
        if let host = o.host { from.append("host \(host)") }
        if let id = o.sourceID { from.append("id \(id)") }
        if let file = o.file { from.append(file) }
        if !from.isEmpty { parts.append("from " + from.joined(separator: ", ")) }
        for key in d.metadata.keys.sorted() { parts.append("\(key) \(d.metadata[key]!)") }
        return parts.joined(separator: "; ")
    }

    /// One line per field, in columns: name, type, unit, label.
    static func fieldLines(_ fields: [FieldDescriptor], indent: String = "  ") -> [String] {
        guard !fields.isEmpty else { return [indent + "(no fields known before the data)"] }
        let w0 = fields.map(\.name.count).max()!
        let w1 = fields.map(\.type.rawValue.count).max()!
        return fields.map { f in
            var line = indent + pad(f.name, w0) + "  " + pad(f.type.rawValue, w1)
            if let unit = f.unit { line += "  " + unit }
            if let label = f.label { line += (f.unit == nil ? "  -" : "") + "  " + label }
            return line.trimmingTrailingSpaces
        }
    }

    /// The whole descriptor: summary, then fields.
    static func lines(_ d: StreamDescriptor, indent: String = "  ") -> [String] {
        [indent + summary(d)] + fieldLines(d.fields, indent: indent + "  ")
    }

    private static func pad(_ s: String, _ width: Int) -> String {
        s.padding(toLength: width, withPad: " ", startingAt: 0)
    }

    /// A rate without needless digits: 100, 12.5, 0.2.
    static func number(_ x: Double) -> String {
        if x == x.rounded(), abs(x) < 1e15 { return String(Int64(x)) }
        return String((x * 1e6).rounded() / 1e6)
    }
}

extension String {
    fileprivate var trimmingTrailingSpaces: String {
        var s = self
        while s.last == " " { s.removeLast() }
        return s
    }
}
