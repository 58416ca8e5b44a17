import DAQCore

/// What `daq inspect FILE.xdf` says about a file: each stream with its rate (nominal, and
/// measured from its synchronised time stamps), samples, first and last time, clock offsets
/// (count, mean), whether its footer is there, and any damage.
public struct XDFReport: Sendable {
    /// The text, one line per fact.
    public let text: String
    /// Whether the file is whole: every footer there, nothing damaged.
    public let complete: Bool

    /// Reads the file once.
    /// - Throws: ``XDFFileError`` when it cannot be read or is not XDF.
    public init(path: String) throws {
        let index = try XDFIndex(path: path)
        var lines: [String] = []
        var first: [Double] = []
        var syncs: [XDFClockSync] = []
        for record in index.streams {
            var sync = XDFClockSync(times: record.clockTimes, values: record.clockValues, resets: true)
            if let t = record.firstTimestamp { first.append(sync.map(t)) }
            syncs.append(sync)
        }
        let origin = XDFTimeOrigin(header: index.fileHeader, earliest: first.min())
        let missing = index.streamsWithoutFooter.map { "'\($0.info.name)'" }
        lines.append(
            "\(path): XDF\(index.isCompressed ? " (gzip)" : ""), \(index.chunkCount) chunks, \(index.streams.count) streams"
        )
        if let date = index.fileHeader?.value("datetime") { lines.append("recorded: \(date)") }
        lines.append("dates: \(origin.rule)")
        for (k, record) in index.streams.enumerated() {
            let info = record.info
            var head = "stream '\(info.name)'"
            let parts = [
                info.type.isEmpty ? nil : "type \(info.type)", "\(info.channelCount) × \(info.format.rawValue)",
                info.sourceID.map { "source_id \($0)" }, info.hostname.map { "host \($0)" },
            ].compactMap { $0 }
            head += " (" + parts.joined(separator: ", ") + ")"
            lines.append(head)
            let labels = info.labels.enumerated().map { i, l in l ?? "ch\(i + 1)" }
            if info.channelCount > 0 && info.channelCount <= 16 {
                let units = info.units.map { $0.map { " [\($0)]" } ?? "" }
                lines.append("  channels: " + zip(labels, units).map { $0 + $1 }.joined(separator: ", "))
            }
            var rate = "  rate: " + (info.nominalRate > 0 ? "nominal \(Self.short(info.nominalRate)) Hz" : "irregular")
            var sync = syncs[k]
            if let a = record.firstTimestamp, let b = record.lastTimestamp {
                let start = sync.map(a)
                let end = sync.map(b)
                if record.sampleCount > 1, end > start {
                    rate += ", measured \(Self.short(Double(record.sampleCount - 1) / (end - start))) Hz"
                }
                lines.append(rate)
                lines.append(
                    "  samples: \(record.sampleCount), first \(Self.time(start, origin)), last \(Self.time(end, origin))"
                )
            } else {
                lines.append(rate)
                lines.append("  samples: 0 (an empty stream)")
            }
            if record.clockValues.isEmpty {
                lines.append("  clock offsets: none")
            } else {
                let mean = record.clockValues.reduce(0, +) / Double(record.clockValues.count)
                lines.append("  clock offsets: \(record.clockValues.count), mean \(Self.short(mean)) s")
            }
            lines.append("  footer: " + (record.footer == nil ? "missing" : "present"))
        }
        if !missing.isEmpty {
            lines.append(
                "incomplete: no StreamFooter for \(missing.joined(separator: ", ")) (the recorder did not finish; 'daq repair' adds them)"
            )
        }
        for damage in index.damage { lines.append("damage: \(damage)") }
        if index.wholeEnd < index.contentLength && index.damage.isEmpty {
            lines.append("damage: \(index.contentLength - index.wholeEnd) bytes after the last whole chunk")
        }
        text = lines.joined(separator: "\n")
        complete = missing.isEmpty && index.damage.isEmpty
    }

    /// A number with at most 6 decimals, without trailing zeros.
    static func short(_ v: Double) -> String {
        var bytes: [UInt8] = []
        NumberFormatting.appendFixed(v, decimals: 6, to: &bytes)
        while bytes.count > 1, bytes.last == UInt8(ascii: "0"), bytes.contains(UInt8(ascii: ".")) { bytes.removeLast() }
        if bytes.last == UInt8(ascii: ".") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A synchronised XDF time, with its date when the file has one.
    static func time(_ t: Double, _ origin: XDFTimeOrigin) -> String {
        let xdf = "\(short(t)) s"
        guard origin.timeBase == .recorded else { return xdf }
        return "\(xdf) (\(ISODate.string(t + origin.offset)))"
    }
}
