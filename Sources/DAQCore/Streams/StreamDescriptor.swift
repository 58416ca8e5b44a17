/// What a stream is, known before its first sample: its fields with their types and units,
/// its nominal rate, what its timestamps count from and in which zone, where it comes from,
/// and free metadata.
///
/// Every stage output has one. A source declares it (``Source/describe(context:)``), reading
/// a file's header where it must; a transform derives its own from its inputs'
/// (``Transform/describe(input:context:)``). A field that first appears mid-run widens it,
/// and the wider descriptor travels with the batch that brought the field, so a sink sees
/// each change in order with the data (``Batch/descriptor``).
///
/// A descriptor describes a stream's data and event samples; step markers, woven in by every
/// sink, have the engine's own fields (``StreamDescriptor/markerField``).
public struct StreamDescriptor: Sendable, Hashable {
    /// The fields, in the order sinks write them.
    public var fields: [FieldDescriptor]
    /// The nominal rate.
    public var rate: SampleRate
    /// What `timestamp` counts from.
    public var timeBase: TimeBase
    /// The zone of the clock the stream was recorded on (an IANA name such as `Europe/Berlin`,
    /// or an offset such as `+01:00`), for local dates, days and epochs; `nil` when unknown
    /// (UTC is then used).
    public var timeZone: String?
    /// Where it comes from.
    public var origin: StreamOrigin
    /// Anything else a source knows (a device's firmware, a recording's session id), by key.
    public var metadata: [String: String]

    /// Creates a descriptor.
    public init(
        fields: [FieldDescriptor] = [], rate: SampleRate = .irregular, timeBase: TimeBase = .run,
        timeZone: String? = nil, origin: StreamOrigin = StreamOrigin(), metadata: [String: String] = [:]
    ) {
        self.fields = fields
        self.rate = rate
        self.timeBase = timeBase
        self.timeZone = timeZone
        self.origin = origin
        self.metadata = metadata
    }

    /// The field named `name`.
    public func field(_ name: String) -> FieldDescriptor? {
        fields.first { $0.name == name }
    }

    /// The index of the field named `name`.
    public func fieldIndex(_ name: String) -> Int? {
        fields.firstIndex { $0.name == name }
    }

    /// The unit of field `name`, `nil` when it has none or there is no such field.
    public func unit(of name: String) -> String? {
        field(name)?.unit
    }

    /// Adds `field` after the others, or replaces the field of that name where it stands.
    public mutating func set(_ field: FieldDescriptor) {
        if let i = fieldIndex(field.name) { fields[i] = field } else { fields.append(field) }
    }

    /// The descriptor with `field` set (``set(_:)``).
    public func setting(_ field: FieldDescriptor) -> StreamDescriptor {
        var d = self
        d.set(field)
        return d
    }

    /// The descriptor with `more` fields set, in order.
    public func setting(_ more: [FieldDescriptor]) -> StreamDescriptor {
        var d = self
        for f in more { d.set(f) }
        return d
    }

    /// Removes the field named `name`, if present.
    public mutating func remove(_ name: String) {
        fields.removeAll { $0.name == name }
    }

    /// The descriptor of two streams merged into one (a stage with several inputs): fields of
    /// both, the first's first, a field in both widened to hold both types; the rate, time base,
    /// zone and origin where the two agree; metadata of both.
    public func merged(with other: StreamDescriptor) -> StreamDescriptor {
        var d = self
        for f in other.fields {
            if let i = d.fieldIndex(f.name) {
                d.fields[i].type = d.fields[i].type.widened(with: f.type)
                if d.fields[i].unit != f.unit { d.fields[i].unit = nil }
            } else {
                d.fields.append(f)
            }
        }
        if d.rate != other.rate { d.rate = .irregular }
        if d.timeBase != other.timeBase {
            // Dates and elapsed times do not mix: a merged stream's time is only as good as the worse.
            d.timeBase = d.timeBase == .run || other.timeBase == .run ? .run : .elapsed
        }
        if d.timeZone != other.timeZone { d.timeZone = nil }
        d.origin = d.origin.common(with: other.origin)
        d.metadata.merge(other.metadata) { mine, _ in mine }
        return d
    }

    /// The descriptor of a stream merged from `descriptors`, in order; `nil` for none.
    public static func merging(_ descriptors: [StreamDescriptor]) -> StreamDescriptor? {
        guard var d = descriptors.first else { return nil }
        for other in descriptors.dropFirst() { d = d.merged(with: other) }
        return d
    }

    /// This descriptor with the fields `earlier` had first, in its order, then the others: a
    /// stream's fields keep their places when it changes, and a field joins at the end. So the
    /// columns a file has are in the same order whichever batch brought a change first.
    public func keepingOrder(of earlier: StreamDescriptor) -> StreamDescriptor {
        var d = self
        var kept: [FieldDescriptor] = []
        for f in earlier.fields { if let now = field(f.name) { kept.append(now) } }
        let known = Set(kept.map(\.name))
        d.fields = kept + fields.filter { !known.contains($0.name) }
        return d
    }

    /// The field every step, pause, resume, start and stop marker carries: what it marks.
    public static let markerField = FieldDescriptor("marker", .string)
}
