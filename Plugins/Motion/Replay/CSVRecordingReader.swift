import DAQCore
import Foundation

/// CSV recordings as devices export them: optional lines of metadata before the header, `,`
/// `;` or tab delimiters, times in s, ms, µs, ns or as date-time text.
final class CSVRecordingReader: RecordingReader {
    struct Options {
        var path: String
        var delimiter: UInt8?
        var skipLines: Int?
        var columns: ColumnMapping
        var timeUnit: TimeUnit
        var timeFormat: String?
        var timeZone: TimeZone
        var units: AxisUnits = .recorded
    }

    private let reader: LineReader
    private let path: String
    private let delimiter: UInt8
    private let timeColumn: Int
    private let axisColumns: (Int, Int, Int)
    private let extraColumns: [Int]
    /// A sample logger's CSV: its `stepPath` column, and `timestampDate` marking marker rows.
    private let stepColumn: Int?
    private let markerColumn: Int?
    private let columnCount: Int
    private(set) var extraNames: [String]
    private(set) var notes: [String] = []
    /// What the header says about the file: set when it names the axes' unit or the app.
    private(set) var info: RecordingInfo?
    /// Multiplies every axis value: 1, or 1/g₀ when m/s² are replayed as g.
    private let axisScale: Double
    private var unit: TimeUnit
    private let dates: DateTimeParser
    /// Rows read ahead to judge the time unit.
    private var lookahead: [(line: Int, cells: [[UInt8]], cut: Bool)] = []
    /// A read error met while reading ahead, raised once the rows before it are out.
    private var deferred: (any Error)?

    init(options o: Options) throws {
        path = o.path
        reader = try LineReader(path: o.path)
        dates = DateTimeParser(pattern: o.timeFormat, timeZone: o.timeZone)
        var preamble: [String] = []
        var header: [String]?
        var chosen: UInt8 = o.delimiter ?? UInt8(ascii: ",")
        while header == nil {
            var text: String?
            var raw: [UInt8] = []
            guard
                try reader.nextLine({
                    text = String(decoding: $0, as: UTF8.self)
                    raw = Array($0)
                }) == .line, let line = text
            else { break }
            if let skip = o.skipLines, reader.lineNumber <= skip {
                preamble.append(line)
                continue
            }
            let candidates: [UInt8] = o.delimiter.map { [$0] } ?? [UInt8(ascii: ","), UInt8(ascii: ";"), 0x09]
            for d in candidates {
                // Quoted names (phyphox) are unquoted, so `columns:` and name matching see the names.
                let cells = raw.withUnsafeBufferPointer { CSVSplit.cells($0, d) }.map {
                    String(decoding: $0, as: UTF8.self).trimmingCharacters(in: .whitespaces)
                }
                if o.columns.resolve(cells) != nil {
                    header = cells
                    chosen = d
                    break
                }
            }
            if header == nil {
                if o.skipLines != nil || reader.lineNumber >= 50 {
                    throw BadRow(
                        path: o.path, line: reader.lineNumber,
                        message:
                            "expected a header naming the time, x, y and z columns, found '\(line.prefix(120))'\(o.columns.hint)"
                    )
                }
                preamble.append(line)
            }
        }
        guard let header, let (t, x, y, z) = o.columns.resolve(header) else {
            throw BadRow(
                path: o.path, line: max(reader.lineNumber, 1),
                message: reader.lineNumber == 0
                    ? "the file is empty" : "no header with time, x, y and z columns\(o.columns.hint)")
        }
        delimiter = chosen
        timeColumn = t
        axisColumns = (x, y, z)
        columnCount = header.count
        stepColumn = header.firstIndex(of: "stepPath")
        markerColumn = header.firstIndex(of: "timestampDate")
        // What a sample logger writes about a sample is not one of its fields.
        let metadata = Set(
            [stepColumn, markerColumn, header.firstIndex(of: "uptime"), header.firstIndex(of: "kind")].compactMap { $0 }
        )
        extraColumns = header.indices.filter { ![t, x, y, z].contains($0) && !metadata.contains($0) }
        extraNames = extraColumns.map { header[$0] }
        if !preamble.isEmpty {
            notes.append("skipped \(preamble.count) line(s) of metadata before the header on line \(reader.lineNumber)")
            if let rate = Self.statedRate(preamble) {
                notes.append("the preamble states a sample rate of \(TimeUnit.short(rate)) Hz")
            }
        }
        if chosen != UInt8(ascii: ",") {
            notes.append("cells are delimited by \(chosen == 0x09 ? "tabs" : "'\(Character(Unicode.Scalar(chosen)))'")")
        }
        (info, axisScale) = try Self.axisUnits(header: header, x: x, options: o, line: reader.lineNumber)
        if axisScale != 1 { notes.append("axes converted from m/s² to g (÷ 9.80665), as units: g asks") }
        unit = o.timeUnit
        if unit == .auto { try detectUnit(header[t]) }
    }

    /// Standard gravity, m/s² per g.
    static let standardGravity = 9.80665

    /// The unit the header gives the axes (phyphox's `(m/s^2)`; Sensor Logger, whose axes are
    /// m/s²), and the scale `units:` asks for.
    private static func axisUnits(header: [String], x: Int, options o: Options, line: Int) throws -> (
        RecordingInfo?, Double
    ) {
        var app: String?
        var recorded = ColumnMapping.unit(header[x]).map { $0.replacingOccurrences(of: "²", with: "^2") }
        if recorded == "m/s2" || recorded == "m/s/s" { recorded = "m/s^2" }
        if header.contains("seconds_elapsed") {
            app = "Sensor Logger"
            recorded = recorded ?? "m/s^2"
        } else if header.contains(where: { $0.hasPrefix("Time (s)") }) && header[x].hasPrefix("Acceleration") {
            app = "phyphox"
        }
        var scale = 1.0
        if o.units == .g {
            guard let from = recorded else {
                throw BadRow(
                    path: o.path, line: line,
                    message:
                        "units: g needs the unit the axes are recorded in, and the header names none (such as 'x (m/s^2)')"
                )
            }
            if from == "m/s^2" {
                scale = 1 / standardGravity
                recorded = "g"
            } else if from.lowercased() != "g" {
                throw BadRow(path: o.path, line: line, message: "units: g cannot convert axes recorded in \(from)")
            }
        }
        guard recorded != nil || app != nil else { return (nil, 1) }
        var info = RecordingInfo(format: "csv")
        info.device = app
        info.units = recorded ?? "as recorded"
        return (info, scale)
    }

    /// Reads ahead to judge whether times are numbers (and in which unit) or date-times.
    private func detectUnit(_ column: String) throws {
        while lookahead.count < 64 {
            var cells: [[UInt8]] = []
            let status: LineReader.Result
            do { status = try reader.nextLine { cells = CSVSplit.cells($0, delimiter) } } catch {
                deferred = error
                break
            }
            guard status == .line else { break }
            if cells.count == 1 && cells[0].isEmpty { continue }
            lookahead.append((reader.lineNumber, cells, !reader.lastLineTerminated))
        }
        let times = lookahead.compactMap { $0.cells.count > timeColumn ? $0.cells[timeColumn] : nil }
        let numeric = times.compactMap { cell in cell.withUnsafeBufferPointer { FastDouble.parse($0) } }
        if !times.isEmpty && numeric.count * 2 < times.count {
            unit = .datetime
            notes.append("times in '\(column)' are date-time text")
            return
        }
        // A NaN time is a bad row later; it says nothing about the unit.
        let (detected, why) = TimeUnit.detect(column: column, values: numeric.filter(\.isFinite))
        unit = detected
        notes.append("times in '\(column)' taken as \(detected.rawValue): \(why); set time_unit to override")
    }

    static func statedRate(_ lines: [String]) -> Double? {
        for line in lines {
            let lower = line.lowercased()
            guard lower.contains("rate") || lower.contains("hz") || lower.contains("frequency") else { continue }
            let numbers = lower.split(whereSeparator: { !($0.isNumber || $0 == ".") }).compactMap { Double($0) }
            if let n = numbers.first(where: { $0 > 0 }) { return n }
        }
        return nil
    }

    func read(into rows: inout RowBuffer, limit: Int) throws -> Bool {
        let target = rows.count + limit
        while !lookahead.isEmpty && rows.count < target {
            let (line, cells, cut) = lookahead.removeFirst()
            try slowRow(cells, line: line, cut: cut, into: &rows)
        }
        if lookahead.isEmpty, let error = deferred {
            deferred = nil
            throw error
        }
        var failure: (any Error)?
        while rows.count < target {
            let status = try reader.nextLine { bytes in
                guard !bytes.isEmpty else { return }
                do { try fastRow(bytes, line: reader.lineNumber, into: &rows) } catch { failure = error }
            }
            if let failure { throw failure }
            if status != .line { return false }
        }
        return true
    }

    /// The common case without allocating cells: numbers between delimiters, no quotes.
    private func fastRow(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, into rows: inout RowBuffer) throws {
        var starts: (Int, Int, Int, Int) = (0, 0, 0, 0)
        var ends: (Int, Int, Int, Int) = (0, 0, 0, 0)
        guard extraColumns.isEmpty, stepColumn == nil, markerColumn == nil, unit != .datetime,
            memchr(bytes.baseAddress!, 0x22, bytes.count) == nil
        else {
            return try slowRow(
                CSVSplit.cells(bytes, delimiter), line: line, cut: !reader.lastLineTerminated, into: &rows)
        }
        var column = 0
        var start = 0
        let (tc, xc, yc, zc) = (timeColumn, axisColumns.0, axisColumns.1, axisColumns.2)
        let d = delimiter
        var i = 0
        let n = bytes.count
        while i <= n {
            if i == n || bytes[i] == d {
                if column == tc {
                    (starts.0, ends.0) = (start, i)
                } else if column == xc {
                    (starts.1, ends.1) = (start, i)
                } else if column == yc {
                    (starts.2, ends.2) = (start, i)
                } else if column == zc {
                    (starts.3, ends.3) = (start, i)
                }
                column += 1
                start = i + 1
            }
            i += 1
        }
        guard column == columnCount else {
            throw BadRow(
                path: path, line: line,
                message:
                    "expected \(columnCount) cells as in the header, found \(column)\(reader.lastLineTerminated ? "" : " (the last line is cut off)")"
            )
        }
        func number(_ s: Int, _ e: Int, _ name: String) throws -> Double {
            guard let v = FastDouble.parse(UnsafeBufferPointer(rebasing: bytes[s..<e])) else {
                throw BadRow(
                    path: path, line: line,
                    message:
                        "\(name) is not a number: '\(String(decoding: UnsafeBufferPointer(rebasing: bytes[s..<e]), as: UTF8.self))'"
                )
            }
            return v
        }
        let t = try number(starts.0, ends.0, "the time") * unit.scale
        let x = try number(starts.1, ends.1, "x") * axisScale
        let y = try number(starts.2, ends.2, "y") * axisScale
        let z = try number(starts.3, ends.3, "z") * axisScale
        rows.append(time: t, x: x, y: y, z: z, line: line)
    }

    private func slowRow(_ cells: [[UInt8]], line: Int, cut: Bool, into rows: inout RowBuffer) throws {
        guard cells.count == columnCount else {
            throw BadRow(
                path: path, line: line,
                message:
                    "expected \(columnCount) cells as in the header, found \(cells.count)\(cut ? " (the last line is cut off)" : "")"
            )
        }
        func number(_ c: Int, _ name: String) throws -> Double {
            guard let v = cells[c].withUnsafeBufferPointer({ FastDouble.parse($0) }) else {
                throw BadRow(
                    path: path, line: line,
                    message: "\(name) is not a number: '\(String(decoding: cells[c], as: UTF8.self))'")
            }
            return v
        }
        let time: Double
        if unit == .datetime {
            let text = String(decoding: cells[timeColumn], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            guard let t = dates.parse(text) else {
                throw BadRow(path: path, line: line, message: "the time is not a date-time: '\(text)'")
            }
            time = t
        } else {
            time = try number(timeColumn, "the time") * unit.scale
        }
        let stepPath = stepColumn.map { String(decoding: cells[$0], as: UTF8.self) } ?? ""
        if let m = markerColumn, !cells[m].isEmpty, cells[axisColumns.0].isEmpty {
            rows.append(time: time, x: .nan, y: .nan, z: .nan, line: line)
            appendMetadata(&rows, stepPath: stepPath, kind: .marker, extras: extraColumns.map { _ in .null })
            return
        }
        let x = try number(axisColumns.0, "x") * axisScale
        let y = try number(axisColumns.1, "y") * axisScale
        let z = try number(axisColumns.2, "z") * axisScale
        rows.append(time: time, x: x, y: y, z: z, line: line)
        appendMetadata(&rows, stepPath: stepPath, kind: .data, extras: extraColumns.map { CSVSplit.value(cells[$0]) })
    }

    /// Step paths and kinds are kept only for a logger's CSV; extras whenever there are any.
    private func appendMetadata(_ rows: inout RowBuffer, stepPath: String, kind: SampleKind, extras: [Value]) {
        if stepColumn != nil || markerColumn != nil {
            rows.stepPaths.append(stepPath)
            rows.kinds.append(kind)
        }
        if !extraColumns.isEmpty { rows.extras.append(extras) }
    }
}

/// Cell values of CSV recordings; the splitting is DAQCore's ``CSVCells``.
enum CSVSplit {
    static func cells(_ line: UnsafeBufferPointer<UInt8>, _ delimiter: UInt8) -> [[UInt8]] {
        CSVCells.split(line, delimiter: delimiter)
    }

    static func value(_ cell: [UInt8]) -> Value {
        let trimmed = cell.drop { $0 == 0x20 }
        if trimmed.isEmpty { return .null }
        return cell.withUnsafeBufferPointer { buf -> Value in
            if let i = NumberParsing.int64(buf) { return .int(i) }
            if let d = FastDouble.parse(buf) { return .double(d) }
            return .string(String(decoding: buf, as: UTF8.self).trimmingCharacters(in: .whitespaces))
        }
    }
}
