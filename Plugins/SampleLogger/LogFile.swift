import DAQCore
import Foundation

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
    /// The JSON layouts' file.
    private let json: OutputFile?
    /// The CSV layout's file, which may grow parts as fields appear.
    private let csv: GrowingCSVFile?
    private var out: OutputFile { csv?.output ?? json! }
    private var t0: Double?
    /// The date shown for uptime 0 (header, marker dates): t0 for a recording with absolute
    /// times; the run's start for one whose times count from 0, so it does not read 1970.
    private var dateOrigin = 0.0
    private let runStart: Double
    /// Dates on the recording's clock, for a stream with recorded time (a device file, a CSV of
    /// dates): every row then carries its `timestampDate`, and the header and markers are in
    /// the zone the stream was recorded in (UTC when it does not say).
    private var dates: LocalDateFormat?
    /// CSV columns: every field any sample had so far, in the order they first appeared.
    private var csvOrder = CSVFieldOrder()
    private var csvFields: [String] { csvOrder.fields }
    /// Whether the current CSV file (or part) still needs its header row, written before its
    /// first row so that fields met until then are in it.
    private var csvHeaderPending = false
    private var warnedFields: Set<String> = []
    /// The index of the sink's next marker this file has not written yet.
    private(set) var nextMarker = 0
    /// Items written, markers included: the manifest's sample count.
    private(set) var items = 0
    /// Data and event samples written.
    private(set) var samples = 0

    /// - Parameter stream: what the file's stream is, when known: its time base decides the
    ///   dates, its fields the CSV header.
    init(path: String, layout: Layout, decimals: Int?, runStart: Double, stream: StreamDescriptor? = nil) throws {
        self.path = path
        if let stream, stream.timeBase == .recorded {
            dates = LocalDateFormat(zone: stream.timeZone.flatMap(ISODate.zone) ?? TimeZone(identifier: "UTC")!)
        }
        // The header holds every declared field from the start: only a field nobody declared
        // starts a part file when it comes.
        _ = csvOrder.add(names: (stream?.fields ?? []).map(\.name).filter { !reservedItemKeys.contains($0) })
        self.runStart = runStart
        self.layout = layout
        self.decimals = decimals
        if layout == .csv {
            csv = try GrowingCSVFile(path: path)
            json = nil
        } else {
            json = try OutputFile(path: path)
            csv = nil
        }
    }

    var bytesWritten: Int { csv?.bytesWritten ?? json!.bytesWritten }
    var bytesFlushed: Int { csv?.bytesFlushed ?? json!.bytesFlushed }

    /// Writes the data and events of `batch`, each preceded by the markers due by its uptime.
    /// - Parameter markers: every marker the sink has seen so far, in order.
    func write(_ batch: Batch, markers: [LogMarker], warn: (String) -> Void) throws {
        if t0 == nil {
            // The first data sample fixes t0; a stream of events only (a scanner's sessions)
            // is fixed by its first event.
            guard let first = batch.kinds.firstIndex(of: .data) ?? batch.kinds.firstIndex(of: .event) else { return }
            try begin(t0: batch.timestamps[first] - batch.uptimes[first])
        }
        if layout == .csv { try growColumns(batch, markers: markers) }
        try writeRows(batch, markers: markers, warn: warn)
    }

    /// Takes the fields of `batch` no earlier sample had. Once rows are in the file, its header
    /// cannot change in place: the rows that follow go into a part with the wider header, and
    /// ``finish(markers:fallbackT0:warn:)`` merges the parts under the final one.
    /// A pause marker still to write brings its own columns (``LogPause/fields``).
    private func growColumns(_ batch: Batch?, markers: [LogMarker]) throws {
        guard let csv else { return }
        var added = batch.map { !csvOrder.add($0, excluding: reservedItemKeys).isEmpty } ?? false
        if markers[nextMarker...].contains(where: { $0.pause != nil }), !csvOrder.add(names: LogPause.fields).isEmpty {
            added = true
        }
        guard added, !csvHeaderPending else { return }
        try csv.startPart()
        csvHeaderPending = true
    }

    /// Writes the header of the current CSV file or part, if it is still due.
    private func writeCSVHeaderIfPending(to buffer: inout [UInt8]) {
        guard csvHeaderPending, let csv else { return }
        LogItemCSV.appendHeader(fields: csvFields, to: &buffer)
        csv.wroteHeader(width: Self.csvMetadataColumns + csvFields.count)
        csvHeaderPending = false
    }

    /// `uptime,timestamp,stepPath,timestampDate,marker` before the fields of every CSV row.
    static let csvMetadataColumns = 5

    /// Writes every remaining marker and the closing bytes, then closes.
    /// - Parameter fallbackT0: t0 for a file that never got data: the run's start date.
    func finish(markers: [LogMarker], fallbackT0: Double, warn: (String) -> Void) throws {
        if t0 == nil { try begin(t0: fallbackT0) }
        if layout == .csv { try growColumns(nil, markers: markers) }
        try out.withBuffer { buffer in
            writeCSVHeaderIfPending(to: &buffer)
            appendMarkers(markers, upTo: .infinity, to: &buffer)
            switch layout {
            case .jsonObject: buffer.append(contentsOf: (items > 0 ? "\n]}\n" : "]}\n").utf8)
            case .jsonArray: buffer.append(contentsOf: (items > 0 ? "\n]\n" : "]\n").utf8)
            case .jsonLines, .csv: break
            }
        }
        if let csv {
            // Once at the end even without `fsync`: a finished run should survive a power cut.
            var header: [UInt8] = []
            LogItemCSV.appendHeader(fields: csvFields, to: &header)
            try csv.finish(header: header, width: Self.csvMetadataColumns + csvFields.count)
            return
        }
        try out.sync()
        try out.close()
    }

    /// Hands the buffer to the kernel, and to the disk when `sync` is set.
    func flush(sync: Bool) throws {
        if sync { try out.sync() } else { try out.flush() }
    }

    private func begin(t0: Double) throws {
        self.t0 = t0
        // Times before 2001 are offsets from a recording's start, not dates.
        dateOrigin = t0 >= 1e9 ? t0 : runStart
        csvHeaderPending = layout == .csv
        try out.withBuffer { buffer in
            switch layout {
            case .jsonObject:
                buffer.append(contentsOf: #"{"startDate":"#.utf8)
                JSONEncoding.appendString(date(dateOrigin), to: &buffer)
                buffer.append(contentsOf: #","items":["#.utf8)
                buffer.append(0x0A)
            case .jsonArray: buffer.append(contentsOf: "[\n".utf8)
            case .jsonLines, .csv: break
            }
        }
    }

    private func writeRows(_ batch: Batch, markers: [LogMarker], warn: (String) -> Void) throws {
        guard let t0 else { return }
        // The markers' own `marker` column is theirs, not a field to warn about.
        for column in batch.columns
        where reservedItemKeys.contains(column.name) && !sharedItemKeys.contains(column.name)
            && Self.dataHas(column, in: batch)
            && warnedFields.insert(column.name).inserted
        {
            warn("field '\(column.name)' has the name of an item key; it is not written to \(path)")
        }
        // Per batch, not per sample: where each header field sits, or each column's key bytes.
        let csvColumns = layout == .csv ? csvFields.map { batch.columnIndex($0) } : []
        let markerColumn = layout == .csv ? batch.columnIndex("marker") : nil
        let jsonKeys = layout == .csv ? [] : LogItemJSON.keys(of: batch)
        try out.withBuffer { buffer in
            writeCSVHeaderIfPending(to: &buffer)
            for row in 0..<batch.count where batch.kinds[row] != .marker {
                appendMarkers(markers, upTo: batch.uptimes[row], to: &buffer)
                appendSeparator(to: &buffer)
                if layout == .csv {
                    LogItemCSV.appendSample(
                        batch, row: row, columns: csvColumns, marker: markerColumn, t0: t0, decimals: decimals,
                        dates: &dates, to: &buffer)
                } else {
                    LogItemJSON.appendSample(
                        batch, row: row, keys: jsonKeys, t0: t0, decimals: decimals, dates: &dates, to: &buffer)
                }
                appendTerminator(to: &buffer)
                samples += 1
            }
        }
    }

    /// Whether a data or event sample of `batch` has `column`: once per batch and reserved name.
    private static func dataHas(_ column: Column, in batch: Batch) -> Bool {
        (0..<batch.count).contains { batch.kinds[$0] != .marker && !column.isAbsent($0) }
    }

    /// Appends the markers not yet written whose uptime is at most `uptime`.
    private func appendMarkers(_ markers: [LogMarker], upTo uptime: Double, to buffer: inout [UInt8]) {
        guard t0 != nil else { return }
        while nextMarker < markers.count, markers[nextMarker].precedes(uptime) {
            appendSeparator(to: &buffer)
            if layout == .csv {
                LogItemCSV.appendMarker(
                    markers[nextMarker], date: date(dateOrigin + markers[nextMarker].uptime), fields: csvFields,
                    to: &buffer)
            } else {
                LogItemJSON.appendMarker(
                    markers[nextMarker], date: date(dateOrigin + markers[nextMarker].uptime), to: &buffer)
            }
            appendTerminator(to: &buffer)
            nextMarker += 1
        }
    }

    /// A header's or marker's date: on the device's clock when known, else in UTC. A
    /// `DateFormatter` here is fine: markers come once per step, not per sample.
    private func date(_ secondsSince1970: Double) -> String {
        dates != nil ? dates!.string(secondsSince1970) : ISODate.string(secondsSince1970)
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
