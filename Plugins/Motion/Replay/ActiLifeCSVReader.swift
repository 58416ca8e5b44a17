import DAQCore
import Foundation

/// ActiLife CSV exports: ten lines of preamble (`------------ Data File Created By ActiGraph …
/// date format M/d/yyyy at 30 Hz …`, serial number, start time and date, epoch period, …, a
/// line of dashes), then `Accelerometer X,Y,Z` in g, with or without a `Timestamp` column — or,
/// for an epoch export, activity counts (`Axis1,Axis2,Axis3,Steps,…`), with or without a header.
/// Without a time column the times are the start plus the row's index over the rate (or times
/// the epoch).
final class ActiLifeCSVReader: RecordingReader {
    /// Whether a file's first line is an ActiLife export's.
    static func matches(firstLine: String) -> Bool {
        firstLine.hasPrefix("---") && firstLine.contains("Data File Created By ActiGraph")
    }

    let extraNames: [String] = []
    private(set) var channelNames: [String] = []
    private(set) var notes: [String] = []
    var info: RecordingInfo? { recording }

    private var recording: RecordingInfo
    private let reader: LineReader
    private let path: String
    private var cells = DelimitedCells(delimiter: UInt8(ascii: ","))
    private var clock: DeviceClock
    private let order: LocalDateTime.Order
    /// Where the time is: a date-time cell, a date cell and a time cell, or none.
    private enum TimeSource {
        case timestamp(Int)
        case dateAndTime(Int, Int)
        case none
    }
    private var timeSource = TimeSource.none
    private var axes = (0, 1, 2)
    private var channelColumns: [Int] = []
    private var columnCount = 0
    private var start = 0.0
    private var step = 0.0
    private var index = 0
    private var scratch: [Double] = []
    /// The first row, when the file has no header row.
    private var firstRow: (bytes: [UInt8], line: Int)?

    /// Opens `path` and reads its preamble and header row.
    /// - Parameter timeZone: the zone of the device's clock (`time_zone:`, else `nil` for UTC).
    /// - Throws: ``OutputFileError`` when the file cannot be read, ``BadRow`` when it is not an
    ///   ActiLife export or its preamble lacks what the rows need.
    init(path: String, timeZone: TimeZone?) throws {
        self.path = path
        reader = try LineReader(path: path)
        var preamble: [String] = []
        while true {
            var text = ""
            guard try reader.nextLine({ text = String(decoding: $0, as: UTF8.self) }) == .line else { break }
            if preamble.isEmpty && !Self.matches(firstLine: text) {
                throw BadRow(
                    path: path, line: 1,
                    message:
                        "not an ActiLife CSV export: it should start with '------------ Data File Created By ActiGraph', but \(RecordingSniff.describe(text))"
                )
            }
            preamble.append(text)
            if preamble.count > 1 && text.hasPrefix("-----") && text.allSatisfy({ $0 == "-" || $0 == " " }) { break }
            if preamble.count >= 20 {
                throw BadRow(
                    path: path, line: reader.lineNumber,
                    message: "no line of dashes ends the preamble in its first 20 lines")
            }
        }
        if preamble.isEmpty { throw BadRow(path: path, line: 1, message: "the file is empty") }
        let title = preamble[0]
        func after(_ marker: String, in text: String) -> String? {
            guard let r = text.range(of: marker) else { return nil }
            return String(text[r.upperBound...]).trimmingCharacters(in: .whitespaces)
        }
        func value(_ key: String) -> String? {
            preamble.lazy.compactMap { line in line.hasPrefix(key) ? String(line.dropFirst(key.count)) : nil }.first
                .map { $0.trimmingCharacters(in: CharacterSet(charactersIn: ": ")) }
        }
        let pattern = after("date format ", in: title).map { String($0.prefix { $0 != " " }) } ?? "M/d/yyyy"
        guard let order = LocalDateTime.Order(pattern: pattern) else {
            throw BadRow(path: path, line: 1, message: "the date format '\(pattern)' names no day, month and year")
        }
        self.order = order
        let rate = after(" at ", in: title).flatMap { Double($0.prefix { $0.isNumber || $0 == "." }) }
        let epoch =
            value("Epoch Period (hh:mm:ss)").flatMap { text in
                Array(text.utf8).withUnsafeBufferPointer { LocalDateTime.parse($0, needDate: false) }
            } ?? 0
        clock = DeviceClock(timeZone: timeZone ?? TimeZone(identifier: "UTC")!)
        if timeZone == nil {
            notes.append(
                "ActiLife exports carry no time zone: times are read as UTC; set time_zone to say where the device was")
        }

        recording = RecordingInfo(format: "actilife-csv")
        recording.device = after("Created By ", in: title).map {
            String($0.components(separatedBy: " ActiLife").first ?? $0)
        }
        recording.serial = value("Serial Number")
        recording.nominalRate = epoch > 0 ? 1 / epoch : rate
        recording.timeZone = clock.label
        if let version = after(" ActiLife ", in: title)?.split(separator: " ").first {
            recording.extra.append(("actilife", String(version)))
        }
        if epoch > 0 {
            recording.units = "counts"
            recording.extra.append(("epoch", "\(TimeUnit.short(epoch)) s"))
        }
        if let date = value("Start Date"), let time = value("Start Time"),
            let local = Array("\(date) \(time)".utf8).withUnsafeBufferPointer({ LocalDateTime.parse($0, order: order) })
        {
            start = clock.utc(local: local)
            recording.start = start
        }
        step = epoch > 0 ? epoch : 1 / (rate ?? 0)
        try readHeader(counts: epoch > 0)
        if recording.units == "counts" {
            notes.append(
                "an epoch (counts) export: axes are activity counts per \(TimeUnit.short(epoch)) s epoch, not g")
        }
    }

    /// Reads the row after the preamble: a header naming the columns, or the first row.
    private func readHeader(counts: Bool) throws {
        var bytes: [UInt8] = []
        guard try reader.nextLine({ bytes = Array($0) }) == .line else { return }
        let line = reader.lineNumber
        let names = String(decoding: bytes, as: UTF8.self).split(separator: ",", omittingEmptySubsequences: false)
            .map { ColumnMapping.normalize(String($0)) }
        columnCount = names.count
        let firstIsData = bytes.withUnsafeBufferPointer { b -> Bool in
            cells.split(b)
            return cells.number(0, b) != nil || LocalDateTime.parse(cells.cell(0, b), order: order) != nil
        }
        if firstIsData {
            firstRow = (bytes, line)
            let timed = bytes.withUnsafeBufferPointer { b in LocalDateTime.parse(cells.cell(0, b), order: order) != nil
            }
            if timed { timeSource = .timestamp(0) }
            axes = timed ? (1, 2, 3) : (0, 1, 2)
            if counts { recording.units = "counts" }
            notes.append("no header row: x, y and z are cells \(axes.0 + 1) to \(axes.2 + 1)")
        } else {
            func find(_ options: [String]) -> Int? { options.lazy.compactMap { names.firstIndex(of: $0) }.first }
            if let x = find(["accelerometer_x"]), let y = find(["accelerometer_y"]), let z = find(["accelerometer_z"]) {
                axes = (x, y, z)
            } else if let x = find(["axis1"]), let y = find(["axis2"]), let z = find(["axis3"]) {
                axes = (x, y, z)
                recording.units = "counts"
                notes.append("x, y and z are Axis1, Axis2 and Axis3")
            } else {
                throw BadRow(
                    path: path, line: line,
                    message:
                        "expected a header with Accelerometer X, Y and Z (or Axis1, Axis2, Axis3), found '\(String(decoding: bytes.prefix(80), as: UTF8.self))'"
                )
            }
            if let t = find(["timestamp"]) {
                timeSource = .timestamp(t)
            } else if let d = find(["date"]), let t = find(["time"]) {
                timeSource = .dateAndTime(d, t)
            }
            var used = [axes.0, axes.1, axes.2]
            switch timeSource {
            case .timestamp(let t): used.append(t)
            case .dateAndTime(let d, let t): used += [d, t]
            case .none: break
            }
            channelColumns = names.indices.filter { !used.contains($0) && !names[$0].isEmpty }
            channelNames = channelColumns.map { names[$0] }
        }
        if case .none = timeSource {
            guard recording.start != nil, step.isFinite, step > 0 else {
                throw BadRow(
                    path: path, line: line,
                    message: "no time column, and the preamble lacks the start or the rate to count from")
            }
        }
        scratch = Array(repeating: 0, count: channelColumns.count)
    }

    func read(into rows: inout RowBuffer, limit: Int) throws -> Bool {
        if rows.channels.isEmpty && !channelNames.isEmpty {
            rows.channels = Array(repeating: [], count: channelNames.count)
        }
        let target = rows.count + limit
        if let first = firstRow {
            firstRow = nil
            try first.bytes.withUnsafeBufferPointer { try row($0, line: first.line, into: &rows) }
        }
        var failure: (any Error)?
        while rows.count < target {
            let status = try reader.nextLine { bytes in
                guard !bytes.isEmpty else { return }
                do { try row(bytes, line: reader.lineNumber, into: &rows) } catch { failure = error }
            }
            if let failure { throw failure }
            if status != .line { return false }
        }
        return true
    }

    private func row(_ bytes: UnsafeBufferPointer<UInt8>, line: Int, into rows: inout RowBuffer) throws {
        cells.split(bytes)
        // Rows are counted even when bad, so the times of the rows after one stay right.
        let i = index
        index += 1
        guard cells.count == columnCount else {
            let cut = reader.lastLineTerminated ? "" : " (the last line is cut off)"
            throw BadRow(path: path, line: line, message: "expected \(columnCount) cells, found \(cells.count)\(cut)")
        }
        let time: Double
        switch timeSource {
        case .none: time = start + Double(i) * step
        case .timestamp(let t):
            guard let local = LocalDateTime.parse(cells.cell(t, bytes), order: order) else {
                throw BadRow(
                    path: path, line: line, message: "the timestamp is not a date-time: '\(cells.text(t, bytes))'")
            }
            time = clock.utc(local: local)
        case .dateAndTime(let d, let t):
            guard let day = LocalDateTime.parseDay(cells.cell(d, bytes), order: order),
                let clockTime = LocalDateTime.parse(cells.cell(t, bytes), needDate: false)
            else {
                throw BadRow(
                    path: path, line: line,
                    message: "the date and time are not one: '\(cells.text(d, bytes)) \(cells.text(t, bytes))'")
            }
            time = clock.utc(local: day + clockTime)
        }
        guard let x = cells.number(axes.0, bytes) else { throw notNumber("x", axes.0, bytes, line) }
        guard let y = cells.number(axes.1, bytes) else { throw notNumber("y", axes.1, bytes, line) }
        guard let z = cells.number(axes.2, bytes) else { throw notNumber("z", axes.2, bytes, line) }
        for (k, c) in channelColumns.enumerated() {
            // An empty cell is a missing value, not a broken row.
            let cell = cells.cell(c, bytes)
            guard let v = cell.isEmpty ? .nan : FastDouble.parse(cell) else {
                throw notNumber(channelNames[k], c, bytes, line)
            }
            scratch[k] = v
        }
        rows.append(time: time, x: x, y: y, z: z, line: line)
        for k in channelColumns.indices { rows.channels[k].append(scratch[k]) }
    }

    private func notNumber(_ name: String, _ column: Int, _ bytes: UnsafeBufferPointer<UInt8>, _ line: Int) -> BadRow {
        BadRow(path: path, line: line, message: "\(name) is not a number: '\(cells.text(column, bytes))'")
    }
}
