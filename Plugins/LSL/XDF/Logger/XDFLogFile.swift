import DAQCore

/// The file `logger.xdf` writes: the FileHeader and every StreamHeader when it opens, Samples
/// chunks as batches come (buffered per stream until a flush), and footers when it closes.
///
/// # Thread safety
/// Not thread-safe: its sink uses it on the stage's queue.
final class XDFLogFile {
    let path: String
    private let out: OutputFile
    /// The XDF stream of each input stream that has one, by the input's name.
    private var streams: [String: XDFOutputStream] = [:]
    private var ordered: [XDFOutputStream] = []
    private let markerStream: XDFOutputStream?
    /// Markers wait for the first data sample: it fixes the data time of run-clock 0 (t0), on
    /// which a marker is stamped, as the other loggers date theirs.
    private var waitingMarkers: [(uptime: Double, text: String)] = []
    private var t0: Double?
    /// Where the last Boundary chunk was written, in the data's time.
    private var lastBoundary: Double?
    /// What the sink has not yet reported delivered, and every sample written.
    private var undelivered = 0
    private var unflushed = 0
    private(set) var samplesWritten = 0
    /// Notes for the log: fields no stream holds.
    private(set) var notes: [String] = []

    var bytesWritten: Int { out.bytesWritten }
    var bytesFlushed: Int { out.bytesFlushed }
    var nulls: Int { ordered.reduce(0) { $0 + $1.nulls } }

    init(path: String, inputs: [String: StreamDescriptor], markers: Bool, runStart: Double, sinkName: String) throws {
        self.path = path
        out = try OutputFile(path: path)
        var id: UInt32 = 1
        var timeBases: Set<TimeBase> = []
        var zones: Set<String?> = []
        var found: [XDFOutputStream] = []
        var notes: [String] = []
        for (name, d) in inputs.sorted(by: { $0.key < $1.key }) {
            timeBases.insert(d.timeBase)
            zones.insert(d.timeZone)
            guard let stream = Self.stream(id: id, name: name, descriptor: d, notes: &notes) else { continue }
            found.append(stream)
            id += 1
        }
        ordered = found
        streams = Dictionary(uniqueKeysWithValues: found.map { ($0.name, $0) })
        self.notes = notes
        if markers {
            let name = inputs[XDFLogFile.markerStreamName] == nil ? XDFLogFile.markerStreamName : "\(sinkName).markers"
            markerStream = XDFOutputStream(
                id: id, name: name, type: "Markers", format: .string,
                channels: [FieldDescriptor("marker", .string)], rate: 0, origin: StreamOrigin(plugin: "daq"))
        } else {
            markerStream = nil
        }
        var bytes: [UInt8] = Array("XDF:".utf8)
        var xml = XDFXMLWriter()
        xml.raw("<?xml version=\"1.0\"?>")
        xml.open("info")
        xml.element("version", "1.0")
        xml.element("datetime", XDFLogFile.isoDate(runStart))
        xml.element("writer", "daq logger.xdf")
        // Time stamps are seconds since 1970 as they are (XDFTimeOrigin, rule 1).
        xml.element("unix_offset", "0")
        if timeBases.contains(.elapsed) { xml.element("time_base", "elapsed") }
        if zones.count == 1, let zone = zones.first! { xml.element("time_zone", zone) }
        xml.close("info")
        XDFChunkEncoding.appendChunk(.fileHeader, content: xml.bytes[...], to: &bytes)
        for stream in ordered + (markerStream.map { [$0] } ?? []) { stream.appendHeader(to: &bytes) }
        try out.write(bytes)
        try out.flush()
    }

    static let markerStreamName = "markers"
    /// The most bytes of samples a stream holds before they become a Samples chunk.
    static let chunkBytes = 1 << 20

    /// The XDF stream of input `name`: its numeric fields (or, without any, its text fields) as
    /// channels; `nil` for an input with neither.
    private static func stream(id: UInt32, name: String, descriptor d: StreamDescriptor, notes: inout [String])
        -> XDFOutputStream?
    {
        let fields = d.fields.filter { $0.name != StreamDescriptor.markerField.name }
        let numeric = fields.filter { $0.type == .double || $0.type == .int || $0.type == .bool }
        let text = fields.filter { $0.type == .string }
        let channels = numeric.isEmpty ? text : numeric
        guard !channels.isEmpty else { return nil }
        let left = fields.filter { f in !channels.contains { $0.name == f.name } }.map(\.name)
        if !left.isEmpty {
            notes.append(
                "stream '\(name)': \(left.joined(separator: ", ")) not written: an XDF stream has one channel format")
        }
        let format: XDFChannelFormat =
            numeric.isEmpty ? .string : (numeric.contains { $0.type == .double } ? .double64 : .int64)
        let type = d.metadata["type"] ?? d.origin.plugin ?? "daq"
        return XDFOutputStream(
            id: id, name: name, type: type, format: format, channels: channels, rate: d.rate.hz ?? 0, origin: d.origin)
    }

    /// Adds a batch: data to its stream, events and markers to the marker stream.
    /// - Throws: ``OutputFileError`` when a full chunk cannot be written (a full disk).
    func add(_ batch: Batch) throws {
        let stream = streams[batch.stream]
        let columns = stream.map { s in s.channels.map { batch.columnIndex($0.name) } } ?? []
        let markerColumn = batch.columnIndex(StreamDescriptor.markerField.name)
        // Data rows go to the stream in runs, between the markers and events, which keep their order.
        var run: [Int] = []
        func flushRun() throws {
            guard let stream, !run.isEmpty else { return }
            stream.add(batch, rows: run, columns: columns)
            count(run.count)
            run.removeAll(keepingCapacity: true)
            // Memory stays bounded between flushes: a stream past 1 MiB becomes a chunk now.
            if stream.pending.count >= Self.chunkBytes { try out.withBuffer { stream.appendSamples(to: &$0) } }
        }
        for row in 0..<batch.count {
            if batch.kinds[row] != .data { try flushRun() }
            switch batch.kinds[row] {
            case .data:
                if t0 == nil {
                    t0 = batch.timestamps[row] - batch.uptimes[row]
                    releaseMarkers()
                }
                run.append(row)
            case .event:
                let text = markerColumn.flatMap { batch.columns[$0][row].stringValue } ?? "\(batch.stream) event"
                addMarker(text, at: batch.timestamps[row])
            case .marker:
                let mark = markerColumn.flatMap { batch.columns[$0][row].stringValue } ?? "step"
                let path = batch.stepPaths[row]
                let text = path.isEmpty ? mark : mark + " " + path
                if let t0 {
                    addMarker(text, at: t0 + batch.uptimes[row])
                } else {
                    waitingMarkers.append((batch.uptimes[row], text))
                }
            }
        }
        try flushRun()
    }

    private func addMarker(_ text: String, at t: Double) {
        guard let markerStream else { return }
        markerStream.add(text: text, at: t)
        count(1)
    }

    private func releaseMarkers() {
        guard let t0 else { return }
        for m in waitingMarkers { addMarker(m.text, at: t0 + m.uptime) }
        waitingMarkers.removeAll()
    }

    private func count(_ n: Int) {
        unflushed += n
        samplesWritten += n
    }

    /// Writes every pending sample as Samples chunks, a clock offset per stream every 5 s of its
    /// data, a Boundary chunk every 10 s, and hands the bytes to the kernel (and the disk).
    func flush(sync: Bool) throws {
        let all = ordered + (markerStream.map { [$0] } ?? [])
        try out.withBuffer { buffer in
            var latest: Double?
            for stream in all where stream.pendingCount > 0 {
                stream.appendSamples(to: &buffer)
                stream.appendClockOffsetIfDue(to: &buffer)
                if let last = stream.last { latest = Swift.max(latest ?? last, last) }
            }
            if let latest, latest - (lastBoundary ?? -.infinity) >= 10 {
                XDFChunkEncoding.appendBoundary(to: &buffer)
                lastBoundary = latest
            }
        }
        if sync { try out.sync() } else { try out.flush() }
        undelivered += unflushed
        unflushed = 0
    }

    /// What was flushed since the last call.
    func takeDelivered() -> Int {
        defer { undelivered = 0 }
        return undelivered
    }

    /// Writes what is pending, a last clock offset and every footer, and closes the file.
    func finish(fallbackT0: Double) throws {
        if t0 == nil {
            t0 = fallbackT0
            releaseMarkers()
        }
        try flush(sync: false)
        let all = ordered + (markerStream.map { [$0] } ?? [])
        try out.withBuffer { buffer in
            for stream in all { stream.appendFooter(to: &buffer) }
        }
        try out.sync()
        try out.close()
    }

    /// `2026-11-28T09:31:00+0000`: the run's start as LabRecorder writes its header's datetime.
    static func isoDate(_ secondsSince1970: Double) -> String {
        let total = Int(secondsSince1970.rounded(.down))
        let days = total >= 0 ? total / 86_400 : (total - 86_399) / 86_400
        let seconds = total - days * 86_400
        let (y, m, d) = civil(days)
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d))T\(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))+0000"
    }

    /// The date `days` after 1970-01-01 (the inverse of ``XDFDateTime/daysSince1970(year:month:day:)``).
    static func civil(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
