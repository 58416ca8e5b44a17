import DAQCore
import Foundation

/// GENEActiv CSV exports (GENEActiv PC software): 100 lines of `Key,Value` preamble, then rows
/// without a header, `YYYY-MM-DD hh:mm:ss:mmm,x,y,z,lux,button,temperature` in g, lux and °C.
/// An epoch export has 12 cells (means, then SVM, the axes' SDs and the peak lux) and is read
/// the same way with those as more channels.
final class GENEActivCSVReader: RecordingReader {
    /// Whether a file's first line is a GENEActiv export's: `Device Type,GENEActiv`.
    static func matches(firstLine: String) -> Bool {
        let line = firstLine.trimmingCharacters(in: .whitespaces)
        guard line.hasPrefix("Device Type"), line.count > 11 else { return false }
        let rest = line.dropFirst(11)
        guard let d = rest.first, d == "," || d == "\t" || d == ";" else { return false }
        return rest.dropFirst().trimmingCharacters(in: .whitespaces).lowercased().hasPrefix("genea")
    }

    /// The preamble GENEActiv writes before the rows.
    static let preambleLines = 100
    static let rawChannels = ["light", "button", "temperature"]
    static let epochChannels = rawChannels + ["svm", "x_sd", "y_sd", "z_sd", "light_peak"]

    let extraNames: [String] = []
    private(set) var channelNames: [String] = []
    private(set) var notes: [String] = []
    var info: RecordingInfo? { recording }

    private var recording: RecordingInfo
    private let reader: LineReader
    private let path: String
    private var cells: DelimitedCells
    private var clock: DeviceClock
    private var columnCount = 0
    /// One row's channel values, checked before any of the row is appended.
    private var scratch: [Double] = []
    /// The first row, read while looking for the end of the preamble.
    private var firstRow: (bytes: [UInt8], line: Int)?

    /// Opens `path` and reads its preamble.
    /// - Parameter timeZone: `time_zone:` when set: overrides the preamble's zone.
    /// - Throws: ``OutputFileError`` when the file cannot be read, ``BadRow`` when it is not a
    ///   GENEActiv export.
    init(path: String, timeZone override: TimeZone?) throws {
        self.path = path
        reader = try LineReader(path: path)
        var values: [String: String] = [:]
        var delimiter: UInt8 = UInt8(ascii: ",")
        var found: (bytes: [UInt8], line: Int)?
        var text = ""
        while found == nil, reader.lineNumber < Self.preambleLines * 2 {
            var bytes: [UInt8] = []
            guard try reader.nextLine({ bytes = Array($0) }) == .line else { break }
            text = String(decoding: bytes, as: UTF8.self)
            if reader.lineNumber == 1 {
                guard Self.matches(firstLine: text) else {
                    throw BadRow(
                        path: path, line: 1,
                        message:
                            "not a GENEActiv CSV export: it should start with 'Device Type,GENEActiv', but \(RecordingSniff.describe(text))"
                    )
                }
                delimiter = DelimitedCells.guess(text)
            }
            // A row starts with a date-time; a preamble line with a key.
            let firstCell =
                bytes.split(separator: delimiter, maxSplits: 1, omittingEmptySubsequences: false).first ?? []
            if reader.lineNumber > 1, Array(firstCell).withUnsafeBufferPointer({ LocalDateTime.parse($0) }) != nil {
                found = (bytes, reader.lineNumber)
                break
            }
            let parts = text.split(
                separator: Character(Unicode.Scalar(delimiter)), maxSplits: 1, omittingEmptySubsequences: false)
            if parts.count == 2 {
                values[parts[0].trimmingCharacters(in: .whitespaces)] = parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        if reader.lineNumber == 0 { throw BadRow(path: path, line: 1, message: "the file is empty") }
        cells = DelimitedCells(delimiter: delimiter)

        let zone = values["Time Zone"]
        if let override {
            clock = DeviceClock(timeZone: override)
        } else if let offset = zone.flatMap(DeviceClock.parseOffset) {
            clock = DeviceClock(offsetSeconds: offset)
        } else {
            clock = DeviceClock(timeZone: TimeZone(identifier: "UTC")!)
            notes.append(
                "the preamble names no time zone: times are read as UTC; set time_zone to say where the device was")
        }
        recording = RecordingInfo(format: "geneactiv-csv")
        let type = values["Device Type"] ?? "GENEActiv"
        recording.device = values["Device Model"].map { "\(type) \($0)" } ?? type
        recording.serial = values["Device Unique Serial Code"]
        recording.nominalRate = GENEActivHeader.leadingNumber(values["Measurement Frequency"])
        recording.timeZone = clock.label
        guard let found else {
            if reader.atEnd { return }
            throw BadRow(
                path: path, line: reader.lineNumber,
                message: "no row of samples (yyyy-MM-dd hh:mm:ss:mmm,x,y,z,…) in the first \(reader.lineNumber) lines")
        }
        if found.line != Self.preambleLines + 1 {
            notes.append("the preamble has \(found.line - 1) lines (GENEActiv writes \(Self.preambleLines))")
        }
        found.bytes.withUnsafeBufferPointer { cells.split($0) }
        columnCount = cells.count
        switch columnCount {
        case 7: channelNames = Self.rawChannels
        case 12:
            channelNames = Self.epochChannels
            notes.append("an epoch export: x, y and z are means over each epoch")
        default:
            throw BadRow(
                path: path, line: found.line,
                message:
                    "expected 7 cells (time, x, y, z, lux, button, temperature) or 12 (an epoch export), found \(columnCount)"
            )
        }
        firstRow = found
        scratch = Array(repeating: 0, count: channelNames.count)
        recording.start = found.bytes.withUnsafeBufferPointer { bytes in
            cells.split(bytes)
            return LocalDateTime.parse(cells.cell(0, bytes)).map { clock.utc(local: $0) }
        }
    }

    func read(into rows: inout RowBuffer, limit: Int) throws -> Bool {
        if rows.channels.isEmpty { rows.channels = Array(repeating: [], count: channelNames.count) }
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
        guard cells.count == columnCount else {
            let cut = reader.lastLineTerminated ? "" : " (the last line is cut off)"
            throw BadRow(
                path: path, line: line,
                message: "expected \(columnCount) cells as in the rows before, found \(cells.count)\(cut)")
        }
        guard let local = LocalDateTime.parse(cells.cell(0, bytes)) else {
            throw BadRow(
                path: path, line: line, message: "the time is not yyyy-MM-dd hh:mm:ss:mmm: '\(cells.text(0, bytes))'")
        }
        var values = (0.0, 0.0, 0.0)
        for (k, name) in ["x", "y", "z"].enumerated() {
            guard let v = cells.number(k + 1, bytes) else {
                throw BadRow(path: path, line: line, message: "\(name) is not a number: '\(cells.text(k + 1, bytes))'")
            }
            if k == 0 { values.0 = v } else if k == 1 { values.1 = v } else { values.2 = v }
        }
        for c in channelNames.indices {
            guard let v = cells.number(c + 4, bytes) else {
                throw BadRow(
                    path: path, line: line, message: "\(channelNames[c]) is not a number: '\(cells.text(c + 4, bytes))'"
                )
            }
            scratch[c] = v
        }
        rows.append(time: clock.utc(local: local), x: values.0, y: values.1, z: values.2, line: line)
        for c in channelNames.indices { rows.channels[c].append(scratch[c]) }
    }
}
