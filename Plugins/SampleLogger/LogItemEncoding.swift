import DAQCore

/// A marker as the loggers write it (a step's, or a pause's or resume's): every file of a sink
/// gets every marker.
struct LogMarker: Sendable, Equatable {
    var uptime: Double
    var stepPath: String
    /// What it marks, as its `marker` field says: `start`, `step`, `stop`, `pause` or `resume`.
    var mark: String
    /// Set for the marker of a pause or a resume.
    var pause: LogPause? = nil

    /// The marker at `row` of `batch`.
    init(_ batch: Batch, row: Int) {
        uptime = batch.uptimes[row]
        stepPath = batch.stepPaths[row]
        mark = batch.value(StreamDescriptor.markerField.name, at: row)?.stringValue ?? "step"
        pause = LogPause(batch, row: row)
    }

    init(uptime: Double, stepPath: String, mark: String, pause: LogPause? = nil) {
        self.uptime = uptime
        self.stepPath = stepPath
        self.mark = mark
        self.pause = pause
    }

    /// Whether it goes before a sample at `sampleUptime`: at or after its time, and for a
    /// resume only after it, so what a pause kept (stamped with the pause's time) sits between
    /// the pause and the resume.
    func precedes(_ sampleUptime: Double) -> Bool {
        mark == "resume" ? sampleUptime > uptime : sampleUptime >= uptime
    }

    /// The value of CSV field column `name` for this marker (a pause's own), `nil` for an empty cell.
    func csvCell(_ name: String) -> String? {
        pause?.csvCell(name)
    }
}

/// What a pause or resume marker adds to an item: which it is, the wall date it happened, and
/// for a resume how long the run stood paused.
struct LogPause: Sendable, Equatable {
    /// `pause` or `resume`.
    var kind: String
    /// Seconds since 1970.
    var wallDate: Double
    var pausedSeconds: Double?

    /// The CSV columns a logger adds once it has a pause to write (which it marks is in the
    /// `marker` column every row has).
    static let fields = ["wallDate", ClockPause.pausedSecondsField]

    /// The pause of marker `row` of `batch`, `nil` for a step marker.
    init?(_ batch: Batch, row: Int) {
        guard let column = batch.column(ClockPause.markerField), !column.isAbsent(row),
            let kind = column[row].stringValue, kind == "pause" || kind == "resume"
        else { return nil }
        self.kind = kind
        wallDate = batch.timestamps[row]
        pausedSeconds = batch.column(ClockPause.pausedSecondsField).flatMap {
            $0.isAbsent(row) ? nil : $0[row].doubleValue
        }
    }

    /// The value of CSV column `name` (one of ``fields``), or `nil` for an empty cell.
    func csvCell(_ name: String) -> String? {
        switch name {
        case "wallDate": return ISODate.string(wallDate)
        case ClockPause.pausedSecondsField: return pausedSeconds.map { String($0) }
        default: return nil
        }
    }
}

/// The keys every item carries; a field of the same name would make a duplicate key.
let reservedItemKeys: Set<String> = ["uptime", "timestamp", "stepPath", "timestampDate", "kind", "marker"]

/// A field an event may carry under an item key's name: `marker`, the text of a marker stream's
/// sample (an LSL or XDF marker), goes where a step marker's kind goes, in the same key or column.
let sharedItemKeys: Set<String> = ["marker"]

/// Encodes items in `RSDRecordSampleLogger`'s layout straight into an output buffer.
///
/// Everything here runs once per sample, so it appends bytes and never builds a `String`, and
/// numbers go through `NumberFormatting`, never Foundation formatters.
enum LogItemJSON {
    /// The bytes `,"name":` of each column, `nil` for a column whose name is an item key.
    static func keys(of batch: Batch) -> [[UInt8]?] {
        batch.columns.map { column in
            if reservedItemKeys.contains(column.name) && !sharedItemKeys.contains(column.name) { return nil }
            var key: [UInt8] = [UInt8(ascii: ",")]
            JSONEncoding.appendString(column.name, to: &key)
            key.append(UInt8(ascii: ":"))
            return key
        }
    }

    /// `{"uptime":u,"timestamp":t,"stepPath":"…"[,"timestampDate":"…"][,"kind":"event"],fields…}`:
    /// the fields the sample has, nulls included; those only other samples of the batch have are
    /// left out. `dates`, for a device recording, writes each sample's date on the device clock.
    static func appendSample(
        _ batch: Batch, row: Int, keys: [[UInt8]?], t0: Double, decimals: Int?, dates: inout LocalDateFormat?,
        to out: inout [UInt8]
    ) {
        out.append(contentsOf: #"{"uptime":"#.utf8)
        JSONEncoding.appendDouble(batch.uptimes[row], to: &out)
        out.append(contentsOf: #","timestamp":"#.utf8)
        JSONEncoding.appendDouble(TimeDifference.between(batch.timestamps[row], t0), to: &out)
        out.append(contentsOf: #","stepPath":"#.utf8)
        JSONEncoding.appendString(batch.stepPaths[row], to: &out)
        if dates != nil {
            out.append(contentsOf: #","timestampDate":""#.utf8)
            dates!.append(batch.timestamps[row], to: &out)
            out.append(UInt8(ascii: "\""))
        }
        if batch.kinds[row] == .event { out.append(contentsOf: #","kind":"event""#.utf8) }
        for (c, column) in batch.columns.enumerated() {
            // A field the sample never had is left out; one it has as null is written as null.
            guard let key = keys[c], !column.isAbsent(row) else { continue }
            let value = column[row]
            out.append(contentsOf: key)
            LogValue.appendJSON(value, decimals: decimals, to: &out)
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"uptime":u,"stepPath":"…","timestampDate":"ISO-8601","timestamp":u,"marker":"step"}`; a
    /// pause's adds `"wallDate":"ISO-8601"` and a resume's `"pausedSeconds"`.
    static func appendMarker(_ marker: LogMarker, date: String, to out: inout [UInt8]) {
        out.append(contentsOf: #"{"uptime":"#.utf8)
        JSONEncoding.appendDouble(marker.uptime, to: &out)
        out.append(contentsOf: #","stepPath":"#.utf8)
        JSONEncoding.appendString(marker.stepPath, to: &out)
        out.append(contentsOf: #","timestampDate":"#.utf8)
        JSONEncoding.appendString(date, to: &out)
        out.append(contentsOf: #","timestamp":"#.utf8)
        JSONEncoding.appendDouble(marker.uptime, to: &out)
        out.append(contentsOf: #","marker":"#.utf8)
        JSONEncoding.appendString(marker.mark, to: &out)
        if let pause = marker.pause {
            out.append(contentsOf: #","wallDate":"#.utf8)
            JSONEncoding.appendString(ISODate.string(pause.wallDate), to: &out)
            if let seconds = pause.pausedSeconds {
                out.append(contentsOf: #","pausedSeconds":"#.utf8)
                JSONEncoding.appendDouble(seconds, to: &out)
            }
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// CSV rows with the columns `uptime,timestamp,stepPath,timestampDate,marker,<fields>`: a
/// marker's row says which it is (`start`, `step`, `pause`, `resume`, `stop`), a sample's leaves
/// it empty.
enum LogItemCSV {
    /// The header row for `fields`.
    static func appendHeader(fields: [String], to out: inout [UInt8]) {
        out.append(contentsOf: "uptime,timestamp,stepPath,timestampDate,marker".utf8)
        for name in fields {
            out.append(UInt8(ascii: ","))
            appendCell(name, to: &out)
        }
        out.append(0x0A)
    }

    /// A data or event row; `columns[i]` is the batch column of header field `i`.
    /// - Parameter marker: the batch's `marker` field, whose text goes in the `marker` column.
    static func appendSample(
        _ batch: Batch, row: Int, columns: [Int?], marker: Int? = nil, t0: Double, decimals: Int?,
        dates: inout LocalDateFormat?, to out: inout [UInt8]
    ) {
        JSONEncoding.appendDouble(batch.uptimes[row], to: &out)
        out.append(UInt8(ascii: ","))
        JSONEncoding.appendDouble(TimeDifference.between(batch.timestamps[row], t0), to: &out)
        out.append(UInt8(ascii: ","))
        appendCell(batch.stepPaths[row], to: &out)
        out.append(UInt8(ascii: ","))
        // timestampDate: markers only, unless the stream has dates of its own; then no marker.
        dates?.append(batch.timestamps[row], to: &out)
        out.append(UInt8(ascii: ","))
        if let marker, case .string(let text) = batch.columns[marker][row] { appendCell(text, to: &out) }
        for index in columns {
            out.append(UInt8(ascii: ","))
            guard let index else { continue }
            appendValue(batch.columns[index][row], decimals: decimals, to: &out)
        }
        out.append(0x0A)
    }

    /// A marker row: its field cells stay empty, but for a pause's own columns.
    static func appendMarker(_ marker: LogMarker, date: String, fields: [String], to out: inout [UInt8]) {
        JSONEncoding.appendDouble(marker.uptime, to: &out)
        out.append(UInt8(ascii: ","))
        JSONEncoding.appendDouble(marker.uptime, to: &out)
        out.append(UInt8(ascii: ","))
        appendCell(marker.stepPath, to: &out)
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: date.utf8)
        out.append(UInt8(ascii: ","))
        out.append(contentsOf: marker.mark.utf8)
        for name in fields {
            out.append(UInt8(ascii: ","))
            if let cell = marker.csvCell(name) { appendCell(cell, to: &out) }
        }
        out.append(0x0A)
    }

    private static func appendValue(_ value: Value, decimals: Int?, to out: inout [UInt8]) {
        switch value {
        case .null: break
        case .double(let d):
            // A spreadsheet reads an empty cell as missing; `null` or `nan` would be text.
            if d.isFinite { LogValue.appendDouble(d, decimals: decimals, to: &out) }
        case .int(let i): NumberFormatting.appendInt(i, to: &out)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        case .string(let s): appendCell(s, to: &out)
        case .bytes(let b): NumberFormatting.appendHex(b, to: &out)
        case .array, .object:
            var json: [UInt8] = []
            LogValue.appendJSON(value, decimals: decimals, to: &json)
            appendCell(json, to: &out)
        }
    }

    /// A cell, quoted only when it holds a comma, a quote or a line break (RFC 4180).
    static func appendCell(_ text: String, to out: inout [UInt8]) {
        var copy = text
        copy.withUTF8 { appendCell($0, to: &out) }
    }

    private static func appendCell<C: Collection>(_ bytes: C, to out: inout [UInt8]) where C.Element == UInt8 {
        let quote = UInt8(ascii: "\"")
        guard bytes.contains(where: { $0 == UInt8(ascii: ",") || $0 == quote || $0 == 0x0A || $0 == 0x0D }) else {
            out.append(contentsOf: bytes)
            return
        }
        out.append(quote)
        for b in bytes {
            if b == quote { out.append(quote) }
            out.append(b)
        }
        out.append(quote)
    }
}

/// Field values, with the sink's `decimals` applied to every double, nested ones included.
enum LogValue {
    static func appendDouble(_ d: Double, decimals: Int?, to out: inout [UInt8]) {
        if let decimals, d.isFinite {
            NumberFormatting.appendFixed(d, decimals: decimals, to: &out)
        } else {
            JSONEncoding.appendDouble(d, to: &out)
        }
    }

    static func appendJSON(_ value: Value, decimals: Int?, to out: inout [UInt8]) {
        guard let decimals else { return JSONEncoding.append(value, to: &out) }
        switch value {
        case .double(let d): appendDouble(d, decimals: decimals, to: &out)
        case .array(let a):
            out.append(UInt8(ascii: "["))
            for (i, v) in a.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendJSON(v, decimals: decimals, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let fields):
            out.append(UInt8(ascii: "{"))
            for (i, (k, v)) in fields.pairs.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONEncoding.appendString(k, to: &out)
                out.append(UInt8(ascii: ":"))
                appendJSON(v, decimals: decimals, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        default: JSONEncoding.append(value, to: &out)
        }
    }
}
