import DAQCore

/// Which field each channel of each replayed stream becomes: its `label` (else `ch1` … `chN`), or
/// `marker` for the one channel of a text stream (LSL markers). A name two channels of one stream
/// share gets `_2`, `_3` …; the same name in two streams is one field, typed to hold both.
struct XDFFieldPlan {
    /// The field every sample carries: its stream's `name`.
    static let streamField = "stream_name"
    /// The field of a one-channel text stream's value.
    static let markerField = "marker"

    /// The channels' fields, after ``streamField``, in the order of the streams, then of their channels.
    private(set) var fields: [FieldDescriptor] = []
    /// Per stream, per channel: the index in ``fields``.
    private(set) var places: [[Int]] = []

    init(streams: [XDFStreamInfo]) {
        var byName: [String: Int] = [:]
        for info in streams {
            var taken: Set<String> = []
            var mine: [Int] = []
            for c in 0..<info.channelCount {
                var name: String
                if info.format == .string && info.channelCount == 1 {
                    name = Self.markerField
                } else {
                    name = info.labels[c] ?? "ch\(c + 1)"
                }
                if name == Self.streamField { name = "ch\(c + 1)" }
                if taken.contains(name) {
                    var n = 2
                    while taken.contains("\(name)_\(n)") { n += 1 }
                    name = "\(name)_\(n)"
                }
                taken.insert(name)
                let field = FieldDescriptor(
                    name, info.format.fieldType, unit: info.units[c],
                    label: info.format == .string ? nil : info.labels[c])
                if let i = byName[name] {
                    fields[i].type = fields[i].type.widened(with: field.type)
                    if fields[i].unit != field.unit { fields[i].unit = nil }
                    mine.append(i)
                } else {
                    byName[name] = fields.count
                    mine.append(fields.count)
                    fields.append(field)
                }
            }
            places.append(mine)
        }
    }
}
