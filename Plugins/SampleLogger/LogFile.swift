import DAQCore

/// One file of a logger sink: one input stream's samples and every marker of the sink, in
/// data-time order.
///
/// Item timestamps are relative to t0 = (first data sample's timestamp − its uptime), the wall
/// time the recorder started; a replayed recording thus gets small relative times. Until the
/// first sample fixes t0, markers wait: the JSON header and each marker's `timestampDate` need it.
///
/// # Thread safety
/// Not thread-safe: its sink uses it on the stage's serial queue only.
final class LogFile {
    /// How items are framed in the file.
    enum Layout: Sendable {
        case jsonObject, jsonArray, jsonLines, csv
    }

    let path: String
    let layout: Layout
    private let decimals: Int?
    private let out: OutputFile
    private var t0: Double?
    /// The date shown for uptime 0 (header, marker dates): t0 for a recording with absolute
    /// times; the run's start for one whose times count from 0, so it does not read 1970.
    private var dateOrigin = 0.0
    private let runStart: Double
    /// CSV columns, fixed by the first batch holding data.
    private var csvFields: [String] = []
    private var warnedFields: Set<String> = []
    /// The index of the sink's next marker this file has not written yet.
    private(set) var nextMarker = 0
    /// Items written, markers included: the manifest's sample count.
    private(set) var items = 0
    /// Data and event samples written.
    private(set) var samples = 0

    init(path: String, layout: Layout, decimals: Int?, runStart: Double) throws {
        self.path = path
        self.runStart = runStart
        self.layout = layout
        self.decimals = decimals
        out = try OutputFile(path: path)
    }

    var bytesWritten: Int { out.bytesWritten }
    var bytesFlushed: Int { out.bytesFlushed }

    /// Writes the data and events of `batch`, each preceded by the markers due by its uptime.
    /// - Parameter markers: every marker the sink has seen so far, in order.
    func write(_ batch: Batch, markers: [LogMarker], warn: (String) -> Void) throws {
        if t0 == nil {
            // The first data sample fixes t0; a stream of events only (a scanner's sessions)
            // is fixed by its first event.
            guard let first = batch.kinds.firstIndex(of: .data) ?? batch.kinds.firstIndex(of: .event) else { return }
            try begin(t0: batch.timestamps[first] - batch.uptimes[first], fields: batch.columns.map(\.name))
        }
        try writeRows(batch, markers: markers, warn: warn)
    }

    /// Writes every remaining marker and the closing bytes, then closes.
    /// - Parameter fallbackT0: t0 for a file that never got data: the run's start date.
    func finish(markers: [LogMarker], fallbackT0: Double, warn: (String) -> Void) throws {
        if t0 == nil { try begin(t0: fallbackT0, fields: []) }
        try out.withBuffer { buffer in
            appendMarkers(markers, upTo: .infinity, to: &buffer)
            switch layout {
            case .jsonObject: buffer.append(contentsOf: (items > 0 ? "\n]}\n" : "]}\n").utf8)
            case .jsonArray: buffer.append(contentsOf: (items > 0 ? "\n]\n" : "]\n").utf8)
            case .jsonLines, .csv: break
            }
        }
        // Once at the end even without `fsync`: a finished run should survive a power cut.
        try out.sync()
        try out.close()
    }

    /// Hands the buffer to the kernel, and to the disk when `sync` is set.
    func flush(sync: Bool) throws {
        if sync { try out.sync() } else { try out.flush() }
    }

    private func begin(t0: Double, fields: [String]) throws {
        self.t0 = t0
        // Times before 2001 are offsets from a recording's start, not dates.
        dateOrigin = t0 >= 1e9 ? t0 : runStart
        csvFields = fields.filter { !reservedItemKeys.contains($0) }
        try out.withBuffer { buffer in
            switch layout {
            case .jsonObject:
                buffer.append(contentsOf: #"{"startDate":"#.utf8)
                JSONEncoding.appendString(ISODate.string(dateOrigin), to: &buffer)
                buffer.append(contentsOf: #","items":["#.utf8)
                buffer.append(0x0A)
            case .jsonArray: buffer.append(contentsOf: "[\n".utf8)
            case .jsonLines: break
            case .csv: LogItemCSV.appendHeader(fields: csvFields, to: &buffer)
            }
        }
    }

    private func writeRows(_ batch: Batch, markers: [LogMarker], warn: (String) -> Void) throws {
        guard let t0 else { return }
        for column in batch.columns where warnedFields.insert(column.name).inserted {
            if reservedItemKeys.contains(column.name) {
                warn("field '\(column.name)' has the name of an item key; it is not written to \(path)")
            } else if layout == .csv && !csvFields.contains(column.name) {
                warn("field '\(column.name)' appeared after the CSV header was written; it is not in \(path)")
            }
        }
        // Per batch, not per sample: where each header field sits, or each column's key bytes.
        let csvColumns = layout == .csv ? csvFields.map { batch.columnIndex($0) } : []
        let jsonKeys = layout == .csv ? [] : LogItemJSON.keys(of: batch)
        try out.withBuffer { buffer in
            for row in 0..<batch.count where batch.kinds[row] != .marker {
                appendMarkers(markers, upTo: batch.uptimes[row], to: &buffer)
                appendSeparator(to: &buffer)
                if layout == .csv {
                    LogItemCSV.appendSample(
                        batch, row: row, columns: csvColumns, t0: t0, decimals: decimals, to: &buffer)
                } else {
                    LogItemJSON.appendSample(
                        batch, row: row, keys: jsonKeys, t0: t0, decimals: decimals, to: &buffer)
                }
                appendTerminator(to: &buffer)
                samples += 1
            }
        }
    }

    /// Appends the markers not yet written whose uptime is at most `uptime`.
    private func appendMarkers(_ markers: [LogMarker], upTo uptime: Double, to buffer: inout [UInt8]) {
        guard t0 != nil else { return }
        while nextMarker < markers.count, markers[nextMarker].uptime <= uptime {
            appendSeparator(to: &buffer)
            if layout == .csv {
                LogItemCSV.appendMarker(markers[nextMarker], t0: dateOrigin, fieldCount: csvFields.count, to: &buffer)
            } else {
                LogItemJSON.appendMarker(markers[nextMarker], t0: dateOrigin, to: &buffer)
            }
            appendTerminator(to: &buffer)
            nextMarker += 1
        }
    }

    /// Counts an item and writes what goes before it: `,\n` between JSON array items.
    private func appendSeparator(to buffer: inout [UInt8]) {
        if items > 0, layout == .jsonObject || layout == .jsonArray {
            buffer.append(UInt8(ascii: ","))
            buffer.append(0x0A)
        }
        items += 1
    }

    /// What ends an item: a newline for JSON Lines (CSV rows carry their own).
    private func appendTerminator(to buffer: inout [UInt8]) {
        if layout == .jsonLines { buffer.append(0x0A) }
    }
}
