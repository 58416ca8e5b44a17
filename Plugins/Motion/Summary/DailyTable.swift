import DAQCore
import Foundation

/// The daily summary being written: the open day's epochs, the calendar, and the table file,
/// whose complete rows reach the disk as each day ends.
///
/// # Thread safety
/// Not thread-safe: ``DailySummarySink`` uses it on its stage's queue only.
struct DailyTable {
    private let settings: DailySummaryConfiguration
    let file: OutputFile
    private var encoding: DayRowEncoding
    private var day: CalendarDay
    private var epochs = DayEpochs()
    /// The greatest common divisor of every epoch start's seconds from its local midnight: the
    /// epoch length, when `epoch` is not given.
    private var grid = 0
    private(set) var lastTimestamp = -Double.infinity
    /// Rows written, and the input samples they (and what went with them) account for.
    private(set) var rows = 0
    private var pendingSamples = 0
    private var wroteRow = false
    /// Times an epoch was not after the one before it; the first is reported, then the count.
    private var timeWentBack = 0

    init(settings: DailySummaryConfiguration, file: OutputFile, zone: TimeZone) {
        self.settings = settings
        self.file = file
        encoding = DayRowEncoding(bands: settings.bands, zone: zone, metric: settings.field)
        day = CalendarDay(zone: zone)
    }

    var zone: TimeZone { day.zone }

    /// The first bytes of the file: the CSV header, or the JSON array's opening.
    static func opening(_ settings: DailySummaryConfiguration) -> [UInt8] {
        settings.writesJSON
            ? Array("[".utf8) : Array((DayRowEncoding.names(bands: settings.bands).joined(separator: ",") + "\n").utf8)
    }

    /// Checks every data sample of `batch` before any is taken, so a bad one changes nothing:
    /// times whole seconds, the value a finite number, the wear fraction 0 to 1, and with
    /// `epoch` given, every start on its grid from local midnight.
    /// - Throws: ``DailySummaryError`` naming the epoch and what was expected.
    func check(_ batch: Batch) throws {
        let values = batch.column(settings.field)
        let wear = batch.column(settings.wear)
        var calendar = day
        let zone = day.zone
        let local = { (t: Double) -> String in
            var f = LocalDateFormat(zone: zone)
            return f.string(t)
        }
        for i in 0..<batch.count where batch.kinds[i] == .data {
            let t = batch.timestamps[i]
            guard t.isFinite, t.rounded() == t else {
                throw DailySummaryError(
                    "the epoch stamped \(t) does not start on a whole second: summary.daily reads the epochs of motion.enmo or motion.mad"
                )
            }
            guard let v = values?.double(at: i), v.isFinite else {
                let found = values.map { "\($0[i])" } ?? "no such field"
                throw DailySummaryError(
                    "the epoch at \(local(t)) has no finite number in '\(settings.field)' (found \(found)): summary.daily reads the epochs of motion.enmo or motion.mad"
                )
            }
            if let wear, wear[i] != .null {
                guard let w = wear.double(at: i), w >= 0 && w <= 1 else {
                    throw DailySummaryError(
                        "the epoch at \(local(t)) has '\(settings.wear)' \(wear[i]), not a fraction from 0 to 1")
                }
            }
            if let epoch = settings.epoch?.value {
                calendar.locate(t)
                let offset = t - calendar.start
                if offset.truncatingRemainder(dividingBy: epoch) != 0 {
                    throw DailySummaryError(
                        "the epoch at \(local(t)) is \(Int(offset)) s after local midnight, not a multiple of epoch: \(Int(epoch))s; set `epoch` to the epoch stage's"
                    )
                }
            }
        }
    }

    /// Takes the data samples of a batch ``check(_:)`` passed, writing each day that ends.
    /// - Throws: when the file cannot be written.
    mutating func take(_ batch: Batch, context: StageContext) throws {
        let values = batch.column(settings.field)
        let wear = batch.column(settings.wear)
        for i in 0..<batch.count {
            switch batch.kinds[i] {
            case .marker: continue
            case .data: break
            default:
                // Events are not summarised; they are delivered with the day they came in.
                pendingSamples += 1
                continue
            }
            let t = batch.timestamps[i]
            if t <= lastTimestamp {
                // A looped replay, a clock set back: the day so far is written as it is and the
                // epochs from here start a row of their own; nothing is merged into a written row.
                timeWentBack += 1
                if timeWentBack == 1 {
                    // A notice, not a warning: a looped replay does this on purpose.
                    var dates = LocalDateFormat(zone: day.zone)
                    context.notice(
                        "the epoch at \(dates.string(t)) is not after the one at \(dates.string(lastTimestamp)): the day so far is written and a new row begins"
                    )
                }
                if !epochs.isEmpty { try writeDay(context: context) }
                day.forget()
            }
            if !(t >= day.start && t < day.end) {
                if !epochs.isEmpty { try writeDay(context: context) }
                day.locate(t)
            }
            let offset = Int(t - day.start)
            grid = gcd(grid, offset)
            let fraction = wear?.double(at: i) ?? 1
            epochs.append(offset: offset, value: values?.double(at: i) ?? 0, worn: fraction >= 0.5)
            lastTimestamp = t
            pendingSamples += 1
        }
    }

    /// Writes the open day, if it has epochs, and closes the file: a JSON array is ended.
    mutating func close(context: StageContext) throws {
        if !epochs.isEmpty { try writeDay(context: context) }
        if timeWentBack > 1 { context.notice("time went back \(timeWentBack) times in all: as many rows began anew") }
        if settings.writesJSON { try file.write(Array((wroteRow ? "\n]\n" : "]\n").utf8)) }
        try file.sync()
        try file.close()
        report(context: context)
    }

    private mutating func writeDay(context: StageContext) throws {
        var epoch = settings.epoch.map { Int($0.value) } ?? Self.epochLength(grid: grid)
        if epoch == 0 {
            // Every epoch so far started at midnight: one epoch a day tells no length.
            context.warn(
                "the epoch length cannot be told from epochs that all start at midnight: taken as 1 h; set `epoch`")
            epoch = 3_600
        }
        let row = epochs.summary(
            date: day.date, start: day.start, length: day.length, epoch: epoch, bands: settings.bands,
            window: settings.window.value)
        let lowWear = row.wearHours < settings.minWearHours
        let json = settings.writesJSON
        let first = !wroteRow
        var encoding = self.encoding
        try file.withBuffer { out in
            if json {
                out.append(contentsOf: (first ? "\n" : ",\n").utf8)
                encoding.appendJSON(row, lowWear: lowWear, to: &out)
            } else {
                encoding.appendCSV(row, lowWear: lowWear, to: &out)
            }
        }
        self.encoding = encoding
        // A day is on disk before the next is started: a failure later loses no finished day.
        try file.flush()
        wroteRow = true
        rows += 1
        epochs.removeAll()
        report(context: context)
    }

    /// Reports the samples the written days account for as delivered, and the file to the manifest.
    private mutating func report(context: StageContext) {
        // What the open day holds is delivered with it; the rest (markers, events) now.
        let held = epochs.count
        if pendingSamples > held {
            context.delivered(samples: pendingSamples - held)
            pendingSamples = held
        }
        context.recordOutput(
            path: file.path, format: settings.writesJSON ? "json" : "csv", samples: rows, bytes: file.bytesFlushed)
    }

    /// The length every start is a multiple of, as a whole epoch of at most an hour (the
    /// longest the epoch stages make): a divisor of `grid`.
    static func epochLength(grid: Int) -> Int {
        guard grid > 3_600 else { return grid }
        return (1...3_600).reversed().first { grid % $0 == 0 } ?? 1
    }

    private func gcd(_ a: Int, _ b: Int) -> Int {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}

/// Input `summary.daily` cannot summarise; the message names the epoch by its local time.
struct DailySummaryError: Error, CustomStringConvertible, DAQErrorConvertible {
    var description: String
    init(_ description: String) { self.description = description }
    var daqError: DAQError { DAQError(.badInput, description) }
}
