import DAQCore

/// What an LSL stream says about itself (its `<info>`), read once from liblsl into Swift values.
struct LSLStreamInfo: Sendable, Equatable {
    var name: String
    var type: String
    var channelCount: Int
    var format: LSLChannelFormat
    /// 0 when irregular (`LSL_IRREGULAR_RATE`).
    var nominalRate: Double
    var sourceID: String
    var hostname: String
    /// The outlet's instance id: a restarted outlet has a new one.
    var uid: String
    /// `desc/channels/channel/label` and `unit`, one per channel, `nil` where absent.
    var labels: [String?]
    var units: [String?]

    /// Reads `info` (a full info, from an inlet, has the description; a resolver's does not).
    init(_ info: OpaquePointer, api: LSLFunctions) {
        name = LSLFunctions.text(api.name(info)) ?? ""
        type = LSLFunctions.text(api.type(info)) ?? ""
        channelCount = Int(api.channelCount(info))
        format = LSLChannelFormat(rawValue: api.channelFormat(info)) ?? .double64
        nominalRate = api.nominalRate(info)
        sourceID = LSLFunctions.text(api.sourceID(info)) ?? ""
        hostname = LSLFunctions.text(api.hostname(info)) ?? ""
        uid = LSLFunctions.text(api.uid(info)) ?? ""
        labels = Array(repeating: nil, count: channelCount)
        units = Array(repeating: nil, count: channelCount)
        var channel = api.child(api.child(api.desc(info), "channels"), "channel")
        var i = 0
        while i < channelCount, let c = channel, api.isEmpty(c) == 0 {
            labels[i] = LSLFunctions.text(api.childValueNamed(c, "label")).flatMap { $0.isEmpty ? nil : $0 }
            units[i] = LSLFunctions.text(api.childValueNamed(c, "unit")).flatMap { $0.isEmpty ? nil : $0 }
            channel = api.nextSiblingNamed(c, "channel")
            i += 1
        }
    }

    /// One line naming the stream, for messages: `'EEG' (type EEG, 8 float32 channels at 500 Hz, source_id …, host …)`.
    var summary: String {
        let rate = nominalRate > 0 ? "at \(nominalRate) Hz" : "irregular"
        var s = "'\(name)' (type \(type.isEmpty ? "none" : type), \(channelCount) \(format.name) channels \(rate)"
        if !sourceID.isEmpty { s += ", source_id \(sourceID)" }
        if !hostname.isEmpty { s += ", host \(hostname)" }
        return s + ")"
    }

    /// A string stream of one channel is a marker stream: its samples are events with the text in `marker`.
    var isMarkerStream: Bool { format == .string && channelCount == 1 }

    /// The field each channel becomes: its label, or `ch1`…`chN` where a label is missing or
    /// repeats an earlier one (a field name must be unique).
    var fieldNames: [String] {
        if isMarkerStream { return ["marker"] }
        var seen: Set<String> = []
        return (0..<channelCount).map { i in
            if let label = labels[i], !seen.contains(label) {
                seen.insert(label)
                return label
            }
            return "ch\(i + 1)"
        }
    }

    /// The stream as DAQKit describes it: a field per channel with its type, unit and LSL label;
    /// the nominal rate; the recorded time base (LSL's clock, mapped to seconds since 1970);
    /// origin and metadata from the info.
    func descriptor(clock: LSLClockMapping) -> StreamDescriptor {
        let type: FieldType = format == .string ? .string : format.isInteger ? .int : .double
        var fields: [FieldDescriptor] = []
        for (i, field) in fieldNames.enumerated() {
            let label = isMarkerStream ? nil : labels[i].flatMap { $0 == field ? nil : $0 }
            fields.append(FieldDescriptor(field, type, unit: isMarkerStream ? nil : units[i], label: label))
        }
        var d = StreamDescriptor(
            fields: fields, rate: nominalRate > 0 ? .hz(nominalRate) : .irregular, timeBase: .recorded,
            origin: StreamOrigin(
                plugin: LSLSource.typeName, device: name.isEmpty ? nil : name,
                host: hostname.isEmpty ? nil : hostname, sourceID: sourceID.isEmpty ? nil : sourceID))
        d.metadata["lsl_name"] = name
        d.metadata["lsl_type"] = self.type
        d.metadata["lsl_channel_format"] = format.name
        d.metadata["lsl_channel_count"] = String(channelCount)
        d.metadata["lsl_uid"] = uid
        d.metadata["time"] = clock.explanation
        return d
    }
}
