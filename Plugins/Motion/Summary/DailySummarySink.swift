import DAQCore
import Foundation

/// `summary.daily`: one row per calendar day of the epochs of `motion.enmo` (or `motion.mad`),
/// as a CSV table or a JSON array.
///
/// Days are midnight to midnight in `time_zone`, else the recording's zone, else UTC; a
/// daylight-saving day is 23 or 25 hours long. Each row has the date, the day's length, the
/// epochs and hours recorded, the hours worn (an epoch is worn when `wear`, its fraction of worn
/// samples, is at least 0.5), `low_wear` when that is under `min_wear_hours`, the mean of
/// `field` over worn epochs, the minutes worn in each intensity band, and the most and least
/// active windows of `window` (M5 and L5) with the local time each starts.
///
/// Non-wear epochs are left out of the mean, the band minutes and M5/L5, and an M5/L5 window
/// must be worn throughout: it slides one epoch at a time within the day, and a window that
/// holds a non-wear or missing epoch does not qualify (a day without such a window has empty
/// M5/L5). GGIR instead imputes non-wear from the same time on other days; a sink that holds
/// one day at a time cannot, so it leaves those windows out rather than count non-wear as rest.
///
/// A day is written, and flushed to disk, when the first epoch of the next day comes; the
/// last day at the end of input. So memory is one day of epochs, and the rows are the same at
/// every clock and batch size. An epoch that is not after the one before (a looped replay)
/// writes the day so far and starts a new row, with a notice. Bad input (an epoch without a
/// finite value, or off the given `epoch` grid) fails with the epoch's local time; under
/// `on_error: stop` the table is closed first with the days so far, the last one cut short, so
/// a JSON table is still valid.
public final class DailySummarySink: SinkPlugin {
    public typealias Configuration = DailySummaryConfiguration

    public static let typeName = "summary.daily"
    public static let summary =
        "Daily summary of motion.enmo epochs, one row per local calendar day (CSV or JSON): wear hours, mean ENMO, band minutes, M5/L5 with start times, low-wear flag."

    private let settings: Configuration
    private let path: String

    private enum State {
        /// Before `start`.
        case idle
        /// The file is open and begun; the zone is known only once a source has started.
        case open(OutputFile)
        case summarising(DailyTable)
        /// Finished, or failed after closing the table.
        case closed
    }

    private var state = State.idle

    /// The summary holds no markers.
    public var sendsMarkers: Bool { false }

    public init(configuration: Configuration, context: PluginContext) throws {
        settings = configuration
        path = context.resolve(configuration.path)
    }

    public func start(context: StageContext) throws {
        var target = path
        if context.isRestart && FileManager.default.fileExists(atPath: path) {
            // A reload restarted the sink: the earlier instance's table is the run's, kept.
            let ext = (path as NSString).pathExtension
            let stem = ext.isEmpty ? path : String(path.dropLast(ext.count + 1))
            var n = 2
            repeat {
                target = "\(stem)-\(n)" + (ext.isEmpty ? "" : ".\(ext)")
                n += 1
            } while FileManager.default.fileExists(atPath: target)
            context.notice("\(path) holds the days before the reload; writing \(target) from now on")
        }
        let file = try OutputFile(path: target)
        try file.write(DailyTable.opening(settings))
        state = .open(file)
    }

    /// `time_zone`, else the zone the data's stream was recorded in, else UTC.
    private func zone(_ batch: Batch?, _ context: StageContext) -> TimeZone {
        settings.timeZone.flatMap(ISODate.zone)
            ?? (batch?.descriptor ?? context.inputDescriptor)?.timeZone.flatMap(ISODate.zone)
            ?? TimeZone(identifier: "UTC")!
    }

    public func write(_ batch: Batch, context: StageContext) throws {
        var table: DailyTable
        switch state {
        case .idle, .closed: return
        case .open(let file):
            guard batch.kinds.contains(.data) else { return }
            table = DailyTable(settings: settings, file: file, zone: zone(batch, context))
        case .summarising(let t): table = t
        }
        // The state's copy is dropped, so the day's buffers have one owner and grow in place.
        state = .closed
        let before = table.file.bytesWritten
        defer { context.wrote(bytes: table.file.bytesWritten - before) }
        do {
            try table.check(batch)
        } catch let error as DailySummaryError {
            guard context.errorPolicy == .stop else {
                state = .summarising(table)
                throw error
            }
            // The stage fails and is not finished: close the table now, with what it has.
            try? table.close(context: context)
            throw DailySummaryError(
                "\(error.description); \(table.file.path) holds the days before, the last one cut short")
        }
        do {
            try table.take(batch, context: context)
        } catch {
            try? table.close(context: context)
            throw error
        }
        state = .summarising(table)
    }

    public func flush(context: StageContext) throws {
        switch state {
        case .open(let file): try file.flush()
        case .summarising(let table): try table.file.flush()
        case .idle, .closed: break
        }
    }

    public func finish(context: StageContext) throws {
        var table: DailyTable
        switch state {
        case .idle, .closed: return
        case .open(let file): table = DailyTable(settings: settings, file: file, zone: zone(nil, context))
        case .summarising(let t): table = t
        }
        state = .closed
        try table.close(context: context)
    }
}
