import DAQCore

extension XDFReplaySource {
    /// Says what the file holds (a notice per stream, one for an empty stream), warns when
    /// streams have no footer (a LabRecorder that crashed or was killed), and records the file
    /// in the run manifest's `inputs`.
    func report(_ index: XDFIndex, chosen: [XDFStreamRecord], origin: XDFTimeOrigin, context: StageContext) {
        for record in chosen {
            let info = record.info
            let rate = info.nominalRate > 0 ? "\(info.nominalRate) Hz" : "irregular"
            let what =
                "stream '\(info.name)' (\(info.type.isEmpty ? "no type" : info.type), \(info.channelCount) × \(info.format.rawValue), \(rate))"
            if record.sampleCount == 0 {
                context.notice("\(what) has no samples")
            } else {
                context.notice("\(what): \(record.sampleCount) samples, \(record.clockTimes.count) clock offsets")
            }
        }
        context.notice("dates: \(origin.rule)")
        let unfinished = index.streamsWithoutFooter.map { "'\($0.info.name)'" }
        if !unfinished.isEmpty {
            context.warn(
                "\(path) is incomplete: no StreamFooter for \(unfinished.joined(separator: ", ")) (the recorder crashed or was killed); every whole chunk is read"
            )
        }
        var fields: Fields = [
            "path": .string(path), "format": .string("xdf"),
            "streams": .array(
                chosen.map { r -> Value in
                    .object([
                        "name": .string(r.info.name), "type": .string(r.info.type),
                        "samples": .int(Int64(r.sampleCount)), "clockOffsets": .int(Int64(r.clockTimes.count)),
                        "footer": .bool(r.footer != nil),
                    ])
                }),
            "complete": .bool(unfinished.isEmpty && index.damage.isEmpty),
        ]
        if !index.damage.isEmpty { fields["damage"] = .array(index.damage.map { .string($0.description) }) }
        recordingSummary = fields
        context.recordInput(fields)
    }
}
