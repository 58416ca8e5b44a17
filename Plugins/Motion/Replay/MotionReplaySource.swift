import DAQCore
import Foundation

/// Replays an accelerometer (or other 3-axis IMU) recording: CSV, JSON Lines or a
/// SageResearch motion log, plain or gzip-compressed, streamed in constant memory.
///
/// Each row becomes a sample with `x`, `y`, `z` (and any other columns as fields), stamped with
/// the recording's own time; its run-clock time counts from the first row (or `start`), so the
/// pipeline clock replays it at `speed`, or as fast as possible under `virtual`.
public final class MotionReplaySource: SourcePlugin {
    public enum Format: String, ConfigEnum, Sendable {
        case auto, csv, jsonl, json, cwa, gt3x
        case geneactiv
        case geneactivCSV = "geneactiv-csv"
        case actilifeCSV = "actilife-csv"
    }

    public struct Configuration: PluginConfiguration {
        @Setting(required: "The recording; gzip-compressed files are read directly.")
        var path: String
        @Setting("auto: by content (device files: cwa, gt3x, geneactiv) or extension; json is a SageResearch log.")
        var format = Format.auto
        @Setting("Column (or key) names when they are not found by name.")
        var columns = ColumnMapping()
        @Setting(whenUnset: "auto", "CSV delimiter: ',', ';' or '\\t'; detected from the header when omitted.")
        var delimiter: String?
        @Setting("Lines of metadata before the CSV header; detected when omitted.")
        var skipLines: Int?
        @Setting("Unit of the time column; auto detects and says so in the log.")
        var timeUnit = TimeUnit.auto
        @Setting("Date-time pattern (e.g. yyyy-MM-dd HH:mm:ss.SSS) when times are text.")
        var timeFormat: String?
        @Setting("Time zone (IANA) of date-times that carry none; overrides a device file's own.")
        var timeZone = "UTC"
        @Setting("g converts axes recorded in m/s² (phone apps) to g; recorded keeps them.")
        var units = AxisUnits.recorded
        @Setting("Start over at the end, continuing the run clock.")
        var loop = false
        @Setting("Skip the recording's first seconds.")
        var start: Seconds?
        @Setting("Stop this many seconds into the recording.")
        var end: Seconds?
        @Setting(
            "fail stops at a bad row, or at gzip data cut short or damaged; skip reports each by file and line, and ends the replay at the damage. Default: skip for a .cwa, whose sectors each carry their own time (a damaged one is read around, as GGIRread, actipy and omconvert do, and the manifest says incomplete); fail for every other format and for gzip damage."
        )
        var onBadRow: OnBadRowPolicy?
        @Setting(
            "An axis, time or number column that is NaN or ±inf (NaN, nan, -nan, inf, -inf, Infinity, -Infinity): fail makes the row bad (file:line), skip drops and counts it, keep passes it on (a time never)."
        )
        var nan = NonFinitePolicy.fail
        @Setting("SageResearch logs: keep only items of this sensorType.")
        var sensorType: String?

        public init() {}

        /// Whether `time_zone` was written, so it overrides the zone a device file states.
        var timeZoneGiven: Bool { $timeZone.isWritten }

        public func validate() throws {
            if path.isEmpty { throw $path.issue("must not be empty") }
            if let delimiter, delimiterByte == nil {
                throw $delimiter.issue("expected one character such as ',', ';' or '\\t', found '\(delimiter)'")
            }
            if let skipLines, skipLines < 0 { throw $skipLines.issue("must be 0 or more") }
            if TimeZone(identifier: timeZone) == nil { throw $timeZone.issue("unknown time zone '\(timeZone)'") }
            if let start, start.value < 0 { throw $start.issue("must be 0 s or more") }
            if let end, end.value <= (start?.value ?? 0) { throw $end.issue("must be after start") }
            if timeFormat != nil && timeUnit != .auto && timeUnit != .datetime {
                throw $timeFormat.issue("a date-time pattern needs time_unit: datetime")
            }
        }

        var delimiterByte: UInt8? {
            guard let delimiter else { return nil }
            if delimiter == "\\t" || delimiter == "\t" || delimiter == "tab" { return 0x09 }
            return delimiter.utf8.count == 1 ? delimiter.utf8.first : nil
        }
    }

    public static let typeName = "motion.replay"
    public static let summary =
        "Replays an accelerometer recording (CSV, JSON Lines, SageResearch log, Axivity .cwa, ActiGraph .gt3x, GENEActiv .bin/CSV, ActiLife and phone-app CSVs; .gz too)."

    public static let output = StreamOutput(
        .own,
        ["x", "y", "z"].map { OutputField($0, .double, unitFrom: "as recorded: g, or m/s² from a phone", "an axis") }
            + [
                OutputField("temperature", .double, unit: "°C", "device files that record it"),
                OutputField("idle", .bool, ".gt3x: true on samples filled in for idle sleep"),
            ],
        note:
            "then a CSV's other columns and a device's other channels; the recording's nominal rate, its dates (or time since its start), its clock's zone or time_zone"
    )

    /// What the recording says about its device and what reading it found, as the run
    /// manifest's `inputs` entry has it: complete once the replay has finished, `nil` for formats
    /// that carry nothing beyond their samples.
    public private(set) var recordingSummary: Fields?
    private let config: Configuration
    private let path: String
    private var reader: (any RecordingReader)?
    private var timing = ReplayTimes()
    private var gaps = GapWatch()
    private var badRows = 0
    /// Rows dropped under `nan: skip`.
    private var nonFiniteRows = 0
    /// Damage that ended a compressed recording early, under `on_bad_row: skip`.
    private var damage: CompressedInputError?
    private var pendingFailure: (any Error)?
    /// Whether the stream was declared from the rows read: once, with the first rows.
    private var declaredFromRows = false
    static let reportLimit = 20

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        path = context.resolve(configuration.path)
    }

    public func start(context: StageContext) throws {
        let reader = try open()
        self.reader = reader
        if let info = reader.info {
            context.notice(Self.describe(info))
            recordingSummary = info.manifestFields(path: path)
            context.recordInput(recordingSummary!)
        }
        for n in reader.notes { context.notice(n) }
    }

    /// One line saying what was found: `cwa, AX3 #12345 at 100 Hz, from 2026-… (+01:00), in g`.
    static func describe(_ info: RecordingInfo) -> String {
        var parts = ["format \(info.format)"]
        if let device = info.device { parts.append("device \(device)" + (info.serial.map { " #\($0)" } ?? "")) }
        if let rate = info.nominalRate { parts.append("configured at \(TimeUnit.short(rate)) Hz") }
        if let start = info.start {
            parts.append("starting \(info.date(start))" + (info.timeZone.map { " (device clock in \($0))" } ?? ""))
        }
        parts.append("axes in \(info.units)")
        for (key, value) in info.extra { parts.append("\(key) \(value)") }
        return parts.joined(separator: ", ")
    }

    /// Whether `time_zone` was written: it then declares the recording's zone, a device file's own
    /// included.
    var timeZoneGiven: Bool { config.timeZoneGiven }
    /// The zone `time_zone` names.
    var configuredTimeZone: String { config.timeZone }
    /// The recording's path as the configuration gives it.
    var configuredPath: String { config.path }
    /// The recording's path, resolved.
    var resolvedPath: String { path }
    /// The unit `units:` asks for.
    var units: AxisUnits { config.units }

    func open() throws -> any RecordingReader {
        var format = config.format
        if format == .auto && GT3XReader.matches(path: path) { format = .gt3x }
        if format == .auto && CWAReader.matches(path: path) { format = .cwa }
        if format == .auto, let first = RecordingSniff.firstLine(path) {
            if GENEActivReader.matches(firstLine: first) {
                format = .geneactiv
            } else if GENEActivCSVReader.matches(firstLine: first) {
                format = .geneactivCSV
            } else if ActiLifeCSVReader.matches(firstLine: first) {
                format = .actilifeCSV
            }
        }
        let zone = TimeZone(identifier: config.timeZone) ?? TimeZone(identifier: "UTC")!
        let reader = try open(format, zone: zone)
        if config.units == .g, let info = reader.info, info.units != "g" {
            // Only the CSV reader converts; a device format records g or counts.
            throw BadRow(path: path, line: 1, message: "units: g cannot convert axes recorded in \(info.units)")
        }
        return reader
    }

    private func open(_ chosen: Format, zone: TimeZone) throws -> any RecordingReader {
        var format = chosen
        if format == .auto {
            let base = path.hasSuffix(".gz") ? String(path.dropLast(3)) : path
            if base.hasSuffix(".jsonl") || base.hasSuffix(".ndjson") {
                format = .jsonl
            } else if base.hasSuffix(".json") {
                format = .json
            } else {
                format = .csv
            }
        }
        switch format {
        case .json:
            return try JSONRecordingReader(
                path: path, lines: false, columns: config.columns, sensorType: config.sensorType)
        case .jsonl:
            return try JSONRecordingReader(
                path: path, lines: true, columns: config.columns, sensorType: config.sensorType)
        case .geneactiv: return try GENEActivReader(path: path, timeZone: config.timeZoneGiven ? zone : nil)
        case .geneactivCSV: return try GENEActivCSVReader(path: path, timeZone: config.timeZoneGiven ? zone : nil)
        case .actilifeCSV: return try ActiLifeCSVReader(path: path, timeZone: config.timeZoneGiven ? zone : nil)
        case .gt3x: return try GT3XReader(path: path, timeZone: config.timeZoneGiven ? zone : nil)
        case .cwa: return try CWAReader(path: path, timeZone: config.timeZoneGiven ? zone : nil)
        default:
            return try CSVRecordingReader(
                options: .init(
                    path: path, delimiter: config.delimiterByte, skipLines: config.skipLines, columns: config.columns,
                    timeUnit: config.timeUnit, timeFormat: config.timeFormat, timeZone: zone, units: config.units))
        }
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        guard let reader else { return .finished }
        if let failure = pendingFailure { throw failure }
        var rows = RowBuffer(capacity: limit)
        var more = true
        while rows.count < limit && more {
            do {
                more = try reader.read(into: &rows, limit: limit - rows.count)
            } catch let bad as BadRow {
                // Emit the good rows before it first; the next read fails the run.
                if failsAt(bad, context: context) { break }
            } catch let found as CompressedInputError {
                // Every whole row before the damage is in `rows`; none after it is ever read.
                more = false
                if endAtDamage(found, context: context) { break }
            } catch {
                // A read error ends the replay, after the rows read before it.
                pendingFailure = error
                break
            }
        }
        // The rows kept: their columns are taken after the loop, whole when (as nearly always)
        // every row is kept. Their run-clock times go into an array of their own and join the
        // batch at once: a week of samples makes this loop hot.
        var kept = KeptRows()
        var uptimes = [Double]()
        var idle: [Int] = []
        var atEnd = !more && pendingFailure == nil
        let hasSteps = !rows.stepPaths.isEmpty
        let offset = reader.timeOffset
        let start = config.start?.value ?? 0
        let end = config.end?.value ?? .infinity
        let before = batch.count
        // The replay's timing in a local for the loop, stored back after it.
        var timing = self.timing
        self.timing = ReplayTimes()
        if let placed = timing.placeAll(rows, start: start, end: end) {
            uptimes = placed
            kept = KeptRows(all: rows.count)
            for i in rows.filled.indices where rows.filled[i] { idle.append(before + i) }
        } else {
            uptimes.reserveCapacity(rows.count)
            for i in 0..<rows.count {
                if let (name, value) = nonFinite(rows, i) {
                    if config.nan == .skip {
                        nonFiniteRows += 1
                        if nonFiniteRows <= Self.reportLimit {
                            context.warn(
                                "dropped \(path):\(rows.lines[i]): \(name) is \(NonFinite.name(value)) (nan: skip)")
                        }
                        continue
                    }
                    // A time cannot be kept: the run clock needs it.
                    if config.nan == .fail || name == "the time" {
                        let bad = BadRow(
                            path: path, line: rows.lines[i],
                            message: "\(name) is \(NonFinite.name(value)), not a finite number"
                                + (name == "the time" ? "" : " (nan: skip drops such rows, nan: keep passes them on)"))
                        self.timing = timing
                        if failsAt(bad, context: context) {
                            // The rows before it go out; the rest of the buffer is never emitted.
                            atEnd = false
                            break
                        }
                        continue
                    }
                }
                let time = rows.times[i]
                if let back = timing.see(time), timing.backwards <= Self.reportLimit {
                    context.warn("\(path):\(rows.lines[i]): timestamp goes back by \(TimeUnit.short(back)) s")
                }
                let relative = time - timing.firstTime!
                if relative < start { continue }
                if relative > end {
                    atEnd = true
                    break
                }
                uptimes.append(timing.emit(relative: relative - start))
                kept.keep(i)
                if !rows.filled.isEmpty && rows.filled[i] { idle.append(before + uptimes.count - 1) }
            }
        }
        self.timing = timing
        if !declaredFromRows && rows.count > 0 {
            // What the header and first rows say, now that they are read: the same as the run was
            // built with for a file, more than it could know for a FIFO.
            declaredFromRows = true
            context.declare(descriptor(of: reader, first: rows))
        }
        var stamps = kept.gather(rows.times)
        // The rows that go out, as they go out: where a batch ends (or `end:` cuts) changes nothing.
        gaps.see(
            times: stamps, isData: { rows.kinds.isEmpty || rows.kinds[kept.index($0)] == .data },
            line: { rows.lines.isEmpty ? nil : rows.lines[kept.index($0)] }, path: path, context: context)
        if offset != 0 { for k in stamps.indices { stamps[k] += offset } }
        batch.appendRows(
            uptimes: uptimes, timestamps: stamps, stepPaths: hasSteps ? kept.gather(rows.stepPaths) : nil,
            kinds: hasSteps ? kept.gather(rows.kinds) : nil)
        let xs = kept.gather(rows.xs)
        let ys = kept.gather(rows.ys)
        let zs = kept.gather(rows.zs)
        let extras = rows.extras.isEmpty ? [] : kept.gather(rows.extras)
        let channels = rows.channels.map { kept.gather($0) }
        if atEnd && config.loop && timing.emitted > 0 && damage == nil {
            // Start over: the run clock goes on one sample period after the last sample.
            self.reader = try open()
            self.timing.loopOffset += timing.lastRelative + timing.period
            self.timing.firstTime = nil
            self.timing.lastTime = nil
            gaps.reset()
            return finishBatch(&batch, xs, ys, zs, extras, channels, idle, reader: reader, status: .more)
        }
        return finishBatch(
            &batch, xs, ys, zs, extras, channels, idle, reader: reader, status: atEnd ? .finished : .more,
            context: context)
    }

    private func finishBatch(
        _ batch: inout Batch, _ xs: [Double], _ ys: [Double], _ zs: [Double], _ extras: [[Value]],
        _ channels: [[Double]],
        _ idle: [Int], reader: any RecordingReader, status: SourceStatus, context: StageContext? = nil
    ) -> SourceStatus {
        if batch.count > 0 {
            if batch.kinds.contains(.marker) {
                // Markers carry no axes: null, not NaN, in every output format.
                let kinds = batch.kinds
                batch.setColumn(Column(name: "x", values: zip(xs, kinds).map { $1 == .marker ? .null : .double($0) }))
                batch.setColumn(Column(name: "y", values: zip(ys, kinds).map { $1 == .marker ? .null : .double($0) }))
                batch.setColumn(Column(name: "z", values: zip(zs, kinds).map { $1 == .marker ? .null : .double($0) }))
            } else {
                batch.setColumn(Column(name: "x", doubles: xs))
                batch.setColumn(Column(name: "y", doubles: ys))
                batch.setColumn(Column(name: "z", doubles: zs))
            }
            for (i, name) in reader.extraNames.enumerated() where !extras.isEmpty {
                batch.setColumn(Column(name: name, values: extras.map { i < $0.count ? $0[i] : .null }))
            }
            for (name, values) in zip(reader.channelNames, channels) {
                batch.setColumn(Column(name: name, doubles: values))
            }
            if !idle.isEmpty {
                // Only filled samples carry the flag: a measured one has no `idle` field at all.
                var flags = [Value](repeating: .null, count: batch.count)
                var measured = [Bool](repeating: true, count: batch.count)
                for row in idle {
                    flags[row] = .bool(true)
                    measured[row] = false
                }
                batch.setColumn(Column(name: "idle", values: flags, absent: measured))
            }
        }
        if status == .finished, let context {
            if nonFiniteRows > 0 {
                context.notice("dropped \(nonFiniteRows) row(s) holding NaN or inf in all (nan: skip)")
            }
            if badRows > Self.reportLimit {
                context.warn("skipped \(badRows) bad rows in all (the first \(Self.reportLimit) are listed above)")
            }
            if timing.backwards > Self.reportLimit {
                context.warn("\(timing.backwards) timestamps went back in all")
            }
            if let info = reader.info { report(info, context: context) }
            if let rate = measuredRate {
                context.notice(
                    "replayed \(timing.emitted) samples; sample rate from the timestamps ≈ \(TimeUnit.short((rate * 100).rounded() / 100)) Hz"
                )
            }
        }
        return status
    }

    /// `on_bad_row` as written, else what the format's readers do: read around a damaged
    /// sector of a format whose sectors stand alone, stop at a bad row of any other.
    private var badRowPolicy: OnBadRowPolicy {
        config.onBadRow ?? (reader?.readsAroundDamage == true ? .skip : .fail)
    }

    /// Applies `on_bad_row` and `on_error` to a bad row.
    /// - Returns: `true` when the replay fails at it (after the rows before it are out).
    private func failsAt(_ bad: BadRow, context: StageContext) -> Bool {
        badRows += 1
        if context.errorPolicy == .deadLetter {
            // The row's text is gone by now: its file and line stand in for it.
            context.reject(
                raw: "\(bad.path):\(bad.line)", uptime: timing.loopOffset + timing.lastRelative, reason: bad.description
            )
            return false
        }
        if badRowPolicy == .fail && context.errorPolicy == .stop {
            pendingFailure = bad
            context.noticeHowToReadOn()
            return true
        }
        if badRows <= Self.reportLimit { context.warn("skipped \(bad)") }
        return false
    }

    /// The first value of data row `i` that is NaN or infinite, by name: the time, an axis, or
    /// a numeric extra column. Markers carry no axes and are not checked.
    private func nonFinite(_ rows: RowBuffer, _ i: Int) -> (String, Double)? {
        if !rows.kinds.isEmpty && rows.kinds[i] != .data { return nil }
        if !rows.times[i].isFinite { return ("the time", rows.times[i]) }
        if !rows.xs[i].isFinite { return ("x", rows.xs[i]) }
        if !rows.ys[i].isFinite { return ("y", rows.ys[i]) }
        if !rows.zs[i].isFinite { return ("z", rows.zs[i]) }
        guard !rows.extras.isEmpty, let names = reader?.extraNames else { return nil }
        for (k, value) in rows.extras[i].enumerated() {
            if case .double(let d) = value, !d.isFinite { return (k < names.count ? names[k] : "a column", d) }
        }
        return nil
    }

    /// A compressed recording is damaged or cut short: fails the replay (`on_bad_row: fail`),
    /// or ends it there, warning and marking the manifest's input entry as incomplete.
    /// - Returns: `true` when the replay fails (the rows before the damage go out first).
    private func endAtDamage(_ found: CompressedInputError, context: StageContext) -> Bool {
        let place = "\(found.path):compressed byte \(found.gzip.offset)"
        if context.errorPolicy == .deadLetter {
            context.reject(raw: place, uptime: timing.loopOffset + timing.lastRelative, reason: found.description)
        } else if (config.onBadRow ?? .fail) == .fail && context.errorPolicy == .stop {
            pendingFailure = found
            return true
        } else {
            context.warn("\(found); the replay ends there")
        }
        damage = found
        var fields = recordingSummary ?? ["path": .string(path)]
        fields["damage"] = .string(found.description)
        fields["complete"] = .bool(false)
        context.recordInput(fields)
        recordingSummary = fields
        return false
    }

    /// Samples per second from the mean of the first intervals, leaving out gaps (over twice the
    /// median): jitter averages out, and a pause in the recording does not count as a slow rate.
    private var measuredRate: Double? {
        let intervals = timing.intervals
        guard !intervals.isEmpty else { return nil }
        let median = intervals.sorted()[intervals.count / 2]
        let typical = intervals.filter { $0 <= 2 * median }
        let mean = typical.reduce(0, +) / Double(typical.count)
        return mean > 0 ? 1 / mean : nil
    }

    /// Logs the damage and repairs reading met, and updates the manifest's entry.
    private func report(_ info: RecordingInfo, context: StageContext) {
        let f = info.findings
        if f.corruptBlocks > 0 { context.warn("skipped \(f.corruptBlocks) corrupt block(s) in all") }
        if !f.gaps.isEmpty {
            let total = f.gaps.reduce(0) { $0 + $1.seconds }
            // Whole seconds as they are; others to the millisecond, not `1.2000117301940918`.
            let span = total == total.rounded() ? TimeUnit.short(total) : GapWatch.seconds(total)
            context.notice("\(f.gaps.count) gap(s) without samples, \(span) s in all")
        }
        if !f.filled.isEmpty {
            let total = f.filled.reduce(0) { $0 + ($1.end - $1.start) }
            context.notice(
                "\(f.filled.count) idle-sleep span(s) filled with the last sample (idle: true), \(TimeUnit.short(total)) s in all"
            )
        }
        var fields = info.manifestFields(path: path)
        fields["samples"] = .int(Int64(timing.emitted))
        fields["corruptBlocks"] = .int(Int64(f.corruptBlocks))
        fields["gaps"] = .array(
            f.gaps.map { .object(["start": .string(info.date($0.start)), "seconds": .double($0.seconds)]) })
        fields["idleFilled"] = .array(
            f.filled.map { .object(["start": .string(info.date($0.start)), "end": .string(info.date($0.end))]) })
        if let last = timing.lastTime { fields["end"] = .string(info.date(last + (reader?.timeOffset ?? 0))) }
        if let rate = measuredRate { fields["measuredRate"] = .double((rate * 1000).rounded() / 1000) }
        if let damage {
            fields["damage"] = .string(damage.description)
            fields["complete"] = .bool(false)
        }
        if badRows > 0 {
            // Read around: what is missing is in `gaps`, and the recording is not whole.
            fields["badRows"] = .int(Int64(badRows))
            fields["complete"] = .bool(false)
        }
        context.recordInput(fields)
        recordingSummary = fields
    }

    public func stop(context: StageContext) {
        reader = nil
    }
}

/// The unit the axes are replayed in.
public enum AxisUnits: String, ConfigEnum, Sendable {
    /// As the file records them (g, m/s² or counts), named in the log and manifest.
    case recorded
    /// In g: m/s² (phone apps) divided by 9.80665.
    case g
}

/// What to do with a row that cannot be read.
public enum OnBadRowPolicy: String, ConfigEnum, Sendable {
    case fail, skip
}
