import DAQCore

/// What an outlet carries, decided from a stream's descriptor before its first sample: the
/// channels (fields, labels, units), the format, the rate, the names.
struct LSLOutletLayout: Equatable, Sendable {
    var name: String
    var type: String
    var sourceID: String
    var channels: [FieldDescriptor]
    var format: LSLChannelFormat
    var rate: Double

    /// The layout for `stream` as `descriptor` describes it.
    /// - Throws: ``LSLSinkError`` when a field named in `channels` is not in the descriptor or not a number.
    init(
        stream: String, descriptor: StreamDescriptor, settings: LSLSinkSettings, pipeline: String, component: String,
        several: Bool
    ) throws {
        name = settings.name ?? "\(pipeline).\(component)"
        if several { name += ".\(stream)" }
        type = settings.streamType
        sourceID =
            settings.sourceID.map { several ? "\($0).\(stream)" : $0 } ?? Self.stableID(pipeline, component, stream)
        let numeric: Set<FieldType> = [.double, .int, .bool]
        if let wanted = settings.channels {
            channels = try wanted.map { field in
                guard let f = descriptor.field(field) else {
                    let known = descriptor.fields.map(\.name).joined(separator: ", ")
                    throw LSLSinkError("channels: '\(field)' is not a field of \(stream) (it has \(known))")
                }
                guard numeric.contains(f.type) || f.type == .any else {
                    throw LSLSinkError(
                        "channels: '\(field)' of \(stream) is \(f.type.rawValue); an outlet's channels are numbers")
                }
                return f
            }
        } else {
            channels = descriptor.fields.filter {
                numeric.contains($0.type) && $0.name != StreamDescriptor.markerField.name
            }
        }
        let allInts = !channels.isEmpty && channels.allSatisfy { $0.type == .int || $0.type == .bool }
        format = settings.channelFormat?.lsl ?? (allInts ? .int64 : .double64)
        rate = descriptor.rate.hz ?? 0
    }

    /// The fields of the stream an outlet cannot carry (text, arrays), for a notice.
    static func leftOut(_ descriptor: StreamDescriptor, _ layout: LSLOutletLayout) -> [String] {
        let sent = Set(layout.channels.map(\.name))
        return descriptor.fields.map(\.name).filter { !sent.contains($0) && $0 != StreamDescriptor.markerField.name }
    }

    /// A source id that names the same stream at every run: FNV-1a of pipeline, component and
    /// stream, so a recorder that lost the outlet finds it again after `daq` restarts.
    static func stableID(_ pipeline: String, _ component: String, _ stream: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(pipeline)\u{0}\(component)\u{0}\(stream)".utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return "daq-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// Makes liblsl's stream info for the data outlet, with `desc/channels/channel/{label,unit,type}`
    /// as the XDF meta-data conventions lay them out; the caller destroys it.
    func dataInfo(api: LSLFunctions, pipeline: String, component: String, stream: String) -> OpaquePointer? {
        guard let info = api.createStreamInfo(name, type, Int32(channels.count), rate, format.rawValue, sourceID) else {
            return nil
        }
        let desc = api.desc(info)
        let list = api.appendChild(desc, "channels")
        for c in channels {
            let channel = api.appendChild(list, "channel")
            _ = api.appendChildValue(channel, "label", c.label ?? c.name)
            if let unit = c.unit { _ = api.appendChildValue(channel, "unit", unit) }
            _ = api.appendChildValue(channel, "type", type.isEmpty ? "misc" : type)
        }
        describeOrigin(desc, api: api, pipeline: pipeline, component: component, stream: stream)
        return info
    }

    /// Makes the info of the companion marker stream (`<name>.markers`, one string channel, irregular).
    func markerInfo(api: LSLFunctions, pipeline: String, component: String, stream: String) -> OpaquePointer? {
        guard
            let info = api.createStreamInfo(
                name + ".markers", "Markers", 1, 0, LSLChannelFormat.string.rawValue, sourceID + ".markers")
        else { return nil }
        let desc = api.desc(info)
        let channel = api.appendChild(api.appendChild(desc, "channels"), "channel")
        _ = api.appendChildValue(channel, "label", "marker")
        _ = api.appendChildValue(channel, "type", "Marker")
        describeOrigin(desc, api: api, pipeline: pipeline, component: component, stream: stream)
        return info
    }

    private func describeOrigin(
        _ desc: OpaquePointer?, api: LSLFunctions, pipeline: String, component: String, stream: String
    ) {
        let daq = api.appendChild(desc, "daq")
        _ = api.appendChildValue(daq, "pipeline", pipeline)
        _ = api.appendChildValue(daq, "component", component)
        _ = api.appendChildValue(daq, "stream", stream)
    }
}

/// Why the `lsl` sink could not go on.
struct LSLSinkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
