import DAQCore
import Foundation

/// GENEActiv `.bin` recordings: a text header (device, configuration, calibration), then pages
/// of ten lines — `Recorded Data`, eight `Key:Value` lines (page time, temperature, measurement
/// frequency, …) and one line of 3600 hex characters holding 300 samples.
///
/// Axes are calibrated to g with the header's gains and offsets, light to lux; sample times run
/// from each page's own time at its own frequency, read in the header's time zone (or
/// `time_zone:`) and turned into UTC. A bad page is reported with its number and line, counted,
/// and skipped; the pages after it are read.
final class GENEActivReader: RecordingReader {
    /// Whether a file's first line says it is a GENEActiv `.bin` file.
    static func matches(firstLine: String) -> Bool { GENEActivHeader.isFirstLine(firstLine) }

    let extraNames: [String] = []
    let channelNames = ["temperature", "light", "button"]
    private(set) var notes: [String] = []
    var info: RecordingInfo? { recording }

    private var recording: RecordingInfo
    private let reader: LineReader
    private let path: String
    private let calibration: GENEActivPage.Calibration
    private let headerRate: Double?
    private var clock: DeviceClock
    private var page = GENEActivPage()
    private var cursor = 0
    /// Whether the last line read was `Recorded Data`, so a page's header lines come next.
    private var atPageStart: Bool
    /// Pages met so far, good or bad: the number messages give a page.
    private var pagesSeen = 0
    private let statedPages: Int?
    private var ended = false
    private var deferred: BadRow?
    /// Where the previous page's samples would continue, to find gaps between pages.
    private var expectedNext: Double?

    /// Opens `path` and reads its header and first page.
    /// - Parameter timeZone: `time_zone:` when set: overrides the header's zone.
    /// - Throws: ``OutputFileError`` when the file cannot be read, ``BadRow`` when it is not a
    ///   GENEActiv file or its calibration is missing.
    init(path: String, timeZone override: TimeZone?) throws {
        self.path = path
        reader = try LineReader(path: path)
        let header = try GENEActivHeader(reader: reader, path: path)
        calibration = GENEActivPage.Calibration(
            gain: (
                try header.calibration("x gain", path: path, nonZero: true),
                try header.calibration("y gain", path: path, nonZero: true),
                try header.calibration("z gain", path: path, nonZero: true)
            ),
            offset: (
                try header.calibration("x offset", path: path), try header.calibration("y offset", path: path),
                try header.calibration("z offset", path: path)
            ),
            luxPerCount: try header.calibration("Lux", path: path)
                / header.calibration("Volts", path: path, nonZero: true))
        statedPages = header.value("Memory Status", "Number of Pages").flatMap { Int($0) }
        atPageStart = header.reachedPages
        headerRate = GENEActivHeader.leadingNumber(header.value("Configuration Info", "Measurement Frequency"))

        let headerZone = header.value("Configuration Info", "Time Zone")
        if let override {
            clock = DeviceClock(timeZone: override)
            if let headerZone {
                notes.append("page times read in \(clock.label) (time_zone), not the header's '\(headerZone)'")
            }
        } else if let offset = headerZone.flatMap(DeviceClock.parseOffset) {
            clock = DeviceClock(offsetSeconds: offset)
        } else {
            clock = DeviceClock(timeZone: TimeZone(identifier: "UTC")!)
            notes.append(
                (headerZone.map { "the header's time zone '\($0)' is not an offset such as 'GMT +01:00'" }
                    ?? "the header names no time zone")
                    + ": page times are read as UTC; set time_zone to say where the device was")
        }

        recording = RecordingInfo(format: "geneactiv")
        let type = header.value("Device Identity", "Device Type") ?? "GENEActiv"
        recording.device = header.value("Device Identity", "Device Model").map { "\(type) \($0)" } ?? type
        recording.serial = header.value("Device Identity", "Device Unique Serial Code")
        recording.nominalRate = headerRate
        recording.timeZone = clock.label
        if let firmware = header.value("Device Identity", "Device Firmware Version") {
            recording.extra.append(("firmware", firmware))
        }
        if let statedPages { recording.extra.append(("pages", String(statedPages))) }
        if !atPageStart && statedPages ?? 0 > 0 {
            throw BadRow(
                path: path, line: max(reader.lineNumber, 1),
                message: "the file ends in its header, before the first page (it is cut short)")
        }
        // The first page now, so the log can say when the recording starts.
        do { _ = try loadPage() } catch let bad as BadRow { deferred = bad }
    }

    func read(into rows: inout RowBuffer, limit: Int) throws -> Bool {
        let target = rows.count + limit
        while rows.count < target {
            if cursor == page.count {
                if let bad = deferred {
                    deferred = nil
                    throw bad
                }
                guard try loadPage() else { return false }
                continue
            }
            let end = min(page.count, cursor + target - rows.count)
            page.append(cursor, end, into: &rows)
            cursor = end
        }
        return true
    }

    /// Reads the next page into `page`.
    /// - Returns: false at the end of the file.
    /// - Throws: ``BadRow`` for a page that cannot be read, after moving past it.
    private func loadPage() throws -> Bool {
        cursor = 0
        page.count = 0
        if ended { return false }
        if !atPageStart { try findPage() }
        if ended { return try finish() }
        atPageStart = false
        pagesSeen += 1
        let number = pagesSeen
        let pageLine = reader.lineNumber
        var fields: [String: String] = [:]
        for k in 0..<8 {
            var text = ""
            guard try reader.nextLine({ text = String(decoding: $0, as: UTF8.self) }) == .line else {
                return try cutShort(number, "its header stops after \(k) of 8 lines")
            }
            let line = GENEActivHeader.clean(text)
            if line == "Recorded Data" {
                atPageStart = true
                return try badPage(
                    number, line: pageLine,
                    "its header stops after \(k) of 8 lines (the next page starts on line \(reader.lineNumber))")
            }
            // By byte, not Character: grapheme breaking showed in profiles at 8 lines a page.
            if let colon = line.utf8.firstIndex(of: UInt8(ascii: ":")) {
                fields[String(line[..<colon])] = GENEActivHeader.clean(line[line.utf8.index(after: colon)...])
            }
        }
        let time = fields["Page Time"].flatMap { text in
            Array(text.utf8).withUnsafeBufferPointer { LocalDateTime.parse($0) }
        }
        let rate =
            GENEActivHeader.leadingNumber(fields["Measurement Frequency"]).flatMap { $0 > 0 ? $0 : nil } ?? headerRate
        page.temperature = fields["Temperature"].flatMap { Double($0) } ?? .nan
        let start = time.map { clock.utc(local: $0) } ?? 0
        let period = 1 / (rate ?? 1)
        var problem: String?
        var isNewPage = false
        guard
            try reader.nextLine({ hex in
                if hex.count == 13, String(decoding: hex, as: UTF8.self) == "Recorded Data" {
                    isNewPage = true
                    return
                }
                guard hex.count == GENEActivPage.hexLength else {
                    problem = "expected \(GENEActivPage.hexLength) hex characters (300 samples), found \(hex.count)"
                    return
                }
                if let column = page.decode(hex, start: start, period: period, calibration: calibration) {
                    problem = "a character that is not hex at column \(column)"
                }
            }) == .line
        else {
            return try cutShort(number, "it has no data line")
        }
        page.line = reader.lineNumber
        if isNewPage {
            atPageStart = true
            return try badPage(
                number, line: pageLine, "it has no data line (the next page starts on line \(reader.lineNumber))")
        }
        if let problem {
            page.count = 0
            let cut = reader.lastLineTerminated ? "" : " (the file is cut short)"
            return try badPage(number, line: reader.lineNumber, problem + cut)
        }
        guard time != nil else {
            page.count = 0
            let text = fields["Page Time"].map { "'\($0.prefix(40))'" } ?? "missing"
            return try badPage(number, line: pageLine, "its Page Time is \(text), expected yyyy-MM-dd HH:mm:ss:SSS")
        }
        guard rate != nil else {
            page.count = 0
            return try badPage(number, line: pageLine, "it states no Measurement Frequency, nor does the header")
        }
        if let expected = expectedNext, start - expected > 2 * period + 0.001 {
            recording.findings.gaps.append((start: expected, seconds: start - expected))
        }
        // count / rate, not count × period: whole seconds stay whole.
        expectedNext = start + Double(page.count) / (rate ?? 1)
        if recording.start == nil { recording.start = start }
        return true
    }

    /// Skips to the next `Recorded Data` line; lines on the way belong to no page and are reported.
    private func findPage() throws {
        var skipped = 0
        var first = 0
        while true {
            var text = ""
            guard try reader.nextLine({ text = String(decoding: $0, as: UTF8.self) }) == .line else {
                ended = true
                break
            }
            let line = GENEActivHeader.clean(text)
            if line == "Recorded Data" {
                atPageStart = true
                break
            }
            if line.isEmpty { continue }
            if skipped == 0 { first = reader.lineNumber }
            skipped += 1
        }
        if skipped > 0 {
            recording.findings.corruptBlocks += 1
            throw BadRow(
                path: path, line: first,
                message: "after page \(pagesSeen): \(skipped) line(s) that belong to no page, skipped")
        }
    }

    /// The end of the file: an error when it holds fewer pages than the header states.
    private func finish() throws -> Bool {
        ended = true
        if let stated = statedPages, pagesSeen < stated {
            throw BadRow(
                path: path, line: max(reader.lineNumber, 1),
                message:
                    "the header states \(stated) pages, but the file ends after page \(pagesSeen) (it is cut short)")
        }
        return false
    }

    private func badPage(_ number: Int, line: Int, _ message: String) throws -> Bool {
        recording.findings.corruptBlocks += 1
        throw BadRow(path: path, line: line, message: "page \(number): \(message)")
    }

    private func cutShort(_ number: Int, _ message: String) throws -> Bool {
        ended = true
        recording.findings.corruptBlocks += 1
        throw BadRow(
            path: path, line: max(reader.lineNumber, 1), message: "page \(number): \(message): the file is cut short")
    }
}
