import DAQCore

extension XDFReplaySource {
    /// The replayed streams as one: `stream_name`, then every stream's channels (``XDFFieldPlan``);
    /// the nominal rate when one stream is replayed (irregular when several are merged); the
    /// time base ``XDFTimeOrigin`` gives; the stream's `source_id` and `hostname` when there is
    /// one; each stream's name, type, format, channel count, rate, source id and host in the
    /// metadata as `<name>.<key>`. Reads the file's headers, not its samples.
    public func describe(context: PluginContext) throws -> StreamDescriptor {
        let index = try XDFIndex(path: path, samples: false)
        return descriptor(of: index, streams: try selected(from: index))
    }

    func descriptor(of index: XDFIndex, streams: [XDFStreamRecord]) -> StreamDescriptor {
        let infos = streams.map(\.info)
        let plan = XDFFieldPlan(streams: infos)
        var d = StreamDescriptor()
        d.fields = [FieldDescriptor(XDFFieldPlan.streamField, .string)] + plan.fields
        if infos.count == 1, infos[0].nominalRate > 0 { d.rate = .hz(infos[0].nominalRate) }
        let dates = XDFTimeOrigin.kind(of: index.fileHeader)
        d.timeBase = dates.base
        d.timeZone = dates.zone
        d.metadata["dates"] = dates.rule
        d.origin = StreamOrigin(plugin: Self.typeName, file: config.path)
        if infos.count == 1 {
            d.origin.sourceID = infos[0].sourceID
            d.origin.host = infos[0].hostname
        }
        d.metadata["format"] = "xdf"
        d.metadata["streams"] = infos.map(\.name).joined(separator: ",")
        for info in infos {
            let parts: [(String, String?)] = [
                ("type", info.type), ("channel_format", info.format.rawValue),
                ("channel_count", String(info.channelCount)),
                ("nominal_srate", info.nominalRate > 0 ? String(info.nominalRate) : "0"),
                ("source_id", info.sourceID), ("hostname", info.hostname),
            ]
            for (key, value) in parts { if let value, !value.isEmpty { d.metadata["\(info.name).\(key)"] = value } }
        }
        return d
    }
}
