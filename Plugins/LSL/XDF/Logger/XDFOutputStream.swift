import DAQCore

/// One XDF stream of a `logger.xdf` file: which fields it writes as channels, in which format,
/// the samples waiting for the next Samples chunk, and what its footer will say.
///
/// # Thread safety
/// Not thread-safe: its sink uses it on the stage's queue.
final class XDFOutputStream {
    let id: UInt32
    let name: String
    let type: String
    let format: XDFChannelFormat
    /// The fields written as channels, in order.
    let channels: [FieldDescriptor]
    let rate: Double
    let origin: StreamOrigin
    /// Samples not yet in a chunk: their bytes (time stamp and values) and count.
    private(set) var pending: [UInt8] = []
    private(set) var pendingCount = 0
    /// Everything the footer says.
    private(set) var count = 0
    private(set) var first: Double?
    private(set) var last: Double?
    private(set) var offsets: [(time: Double, value: Double)] = []
    /// Nulls written as NaN (or 0 in an integer stream), reported once.
    private(set) var nulls = 0

    init(
        id: UInt32, name: String, type: String, format: XDFChannelFormat, channels: [FieldDescriptor], rate: Double,
        origin: StreamOrigin
    ) {
        self.id = id
        self.name = name
        self.type = type
        self.format = format
        self.channels = channels
        self.rate = rate
        self.origin = origin
        pending.reserveCapacity(1 << 12)
    }

    /// The StreamHeader: name, type, channel_count, nominal_srate, channel_format, source_id,
    /// hostname, and `desc/channels/channel` with label, unit and type.
    func appendHeader(to out: inout [UInt8]) {
        var xml = XDFXMLWriter()
        xml.raw("<?xml version=\"1.0\"?>")
        xml.open("info")
        xml.element("name", name)
        xml.element("type", type)
        xml.element("channel_count", String(channels.count))
        xml.element("nominal_srate", number: rate)
        xml.element("channel_format", format.rawValue)
        xml.element("source_id", origin.sourceID ?? "daq:\(name)")
        xml.element("hostname", origin.host)
        xml.open("desc")
        xml.open("channels")
        for field in channels {
            xml.open("channel")
            xml.element("label", field.label ?? field.name)
            xml.element("unit", field.unit)
            xml.element("type", type)
            xml.close("channel")
        }
        xml.close("channels")
        xml.open("acquisition")
        xml.element("manufacturer", "daq")
        xml.element("plugin", origin.plugin)
        xml.element("device", origin.device)
        xml.element("serial", origin.serial)
        xml.element("file", origin.file)
        xml.close("acquisition")
        xml.close("desc")
        xml.close("info")
        XDFChunkEncoding.appendChunk(.streamHeader, stream: id, content: xml.bytes[...], to: &out)
    }

    /// Adds the rows `rows` of `batch`, reading each channel from `columns` (the batch's column
    /// of each channel, `nil` when the batch has none): column by column from unboxed storage,
    /// values written as bytes, nothing allocated per sample.
    func add(_ batch: Batch, rows: [Int], columns: [Int?]) {
        guard !rows.isEmpty else { return }
        let sources = columns.map { $0.map { batch.columns[$0] } }
        let plain = sources.map { $0?.plainDoubles }
        let sampleBytes = 9 + channels.count * (format == .string ? 0 : 8)
        pending.reserveCapacity(pending.count + rows.count * sampleBytes)
        for row in rows {
            stamp(batch.timestamps[row])
            for c in 0..<sources.count {
                if format == .double64, let doubles = plain[c] {
                    XDFChunkEncoding.appendDouble(doubles[row], to: &pending)
                    continue
                }
                append(sources[c].map { $0[row] } ?? .null)
            }
        }
    }

    /// Appends one channel's value in the stream's format.
    private func append(_ value: Value) {
        switch format {
        case .double64:
            var d = Double.nan
            switch value {
            case .double(let v): d = v
            case .int(let v): d = Double(v)
            case .bool(let b): d = b ? 1 : 0
            default: nulls += 1
            }
            XDFChunkEncoding.appendDouble(d, to: &pending)
        case .int64:
            var i: Int64 = 0
            switch value {
            case .int(let v): i = v
            case .bool(let b): i = b ? 1 : 0
            default: nulls += 1
            }
            XDFChunkEncoding.appendUInt(UInt64(bitPattern: i), width: 8, to: &pending)
        default:
            var text = ""
            switch value {
            case .string(let s): text = s
            case .null: nulls += 1
            default: text = "\(value)"
            }
            appendText(text)
        }
    }

    /// Adds a one-channel text sample.
    func add(text: String, at t: Double) {
        stamp(t)
        appendText(text)
    }

    private func stamp(_ t: Double) {
        pending.append(8)
        XDFChunkEncoding.appendDouble(t, to: &pending)
        if first == nil { first = t }
        last = t
        pendingCount += 1
        count += 1
    }

    private func appendText(_ text: String) {
        var t = text
        t.withUTF8 { bytes in
            XDFChunkEncoding.appendVarint(bytes.count, to: &pending)
            pending.append(contentsOf: bytes)
        }
    }

    /// Moves the pending samples into a Samples chunk in `out`.
    func appendSamples(to out: inout [UInt8]) {
        guard pendingCount > 0 else { return }
        var head: [UInt8] = []
        XDFChunkEncoding.appendVarint(pendingCount, to: &head)
        let length = 2 + 4 + head.count + pending.count
        XDFChunkEncoding.appendVarint(length, to: &out)
        XDFChunkEncoding.appendUInt(UInt64(XDFChunkTag.samples.rawValue), width: 2, to: &out)
        XDFChunkEncoding.appendUInt(UInt64(id), width: 4, to: &out)
        out.append(contentsOf: head)
        out.append(contentsOf: pending)
        pending.removeAll(keepingCapacity: true)
        pendingCount = 0
    }

    /// A ClockOffset of 0 measured at the stream's latest time stamp, when 5 s of its time passed
    /// since the last (or none was written): every stream of a run is stamped on one clock, so 0
    /// is the true offset, and readers that synchronise leave the time stamps as they are.
    func appendClockOffsetIfDue(to out: inout [UInt8]) {
        guard let last else { return }
        if let previous = offsets.last, last - previous.time < 5 { return }
        offsets.append((last, 0))
        XDFChunkEncoding.appendClockOffset(stream: id, time: last, value: 0, to: &out)
    }

    func appendFooter(to out: inout [UInt8]) {
        XDFChunkEncoding.appendFooter(
            stream: id, first: first ?? 0, last: last ?? 0, count: count, offsets: offsets, to: &out)
    }
}
