import DAQCore

/// `logger.json`: SageResearch `RSDRecordSampleLogger` logs, `{"startDate": …, "items": [ … ]}`
/// (or the items alone with `root: array`), one file per input stream.
///
/// The file is written as it goes, so a run killed mid-way leaves a log that `daq repair`
/// closes; a finished run leaves valid JSON.
public final class JSONLoggerSink: SinkPlugin {
    /// The keys of every logger, with `root` among them.
    public struct Configuration: PluginConfiguration {
        var destination = LoggerDestination()
        @Setting("object: {\"startDate\", \"items\"}; array: the items alone.") var root = LoggerConfiguration.Root
            .object
        var writing = LoggerWriting()

        public init() {}

        /// The keys every logger shares.
        var logger: LoggerConfiguration {
            var shared = LoggerConfiguration()
            shared.destination = destination
            shared.writing = writing
            return shared
        }

        public func validate() throws { try logger.validate() }
    }

    public static let typeName = "logger.json"
    public static let summary = "SageResearch-style JSON logs with step markers, one file per input stream."

    private let log: SampleLog

    public init(configuration: Configuration, context: PluginContext) throws {
        let layout: LogFile.Layout = configuration.root == .array ? .jsonArray : .jsonObject
        log = SampleLog(configuration: configuration.logger, layout: layout, format: "json", context: context)
    }

    public func start(context: StageContext) throws { try log.start(context: context) }
    public func write(_ batch: Batch, context: StageContext) throws { try log.write(batch, context: context) }
    public func flush(context: StageContext) throws { try log.flush(context: context) }
    public func finish(context: StageContext) throws { try log.finish(context: context) }
}

/// `logger.jsonl`: the items of `logger.json`, one per line, one file per input stream.
///
/// Every complete line is a complete item, so a killed run's file reads as it is.
public final class JSONLinesLoggerSink: SinkPlugin {
    public typealias Configuration = LoggerConfiguration

    public static let typeName = "logger.jsonl"
    public static let summary = "JSON Lines logs with step markers (one item per line), one file per input stream."

    private let log: SampleLog

    public init(configuration: Configuration, context: PluginContext) throws {
        log = SampleLog(configuration: configuration, layout: .jsonLines, format: "jsonl", context: context)
    }

    public func start(context: StageContext) throws { try log.start(context: context) }
    public func write(_ batch: Batch, context: StageContext) throws { try log.write(batch, context: context) }
    public func flush(context: StageContext) throws { try log.flush(context: context) }
    public func finish(context: StageContext) throws { try log.finish(context: context) }
}

/// `logger.csv`: a header row `uptime,timestamp,stepPath,timestampDate,<fields>` and one row per
/// sample, markers included, one file per input stream.
///
/// `timestampDate` is a marker's date; when the run replays a device recording whose clock has a
/// zone, every row's date on that clock. The columns are every field any sample had: a field
/// that appears later widens the file when it closes.
public final class CSVLoggerSink: SinkPlugin {
    public typealias Configuration = LoggerConfiguration

    public static let typeName = "logger.csv"
    public static let summary = "CSV logs with step markers as rows, one file per input stream."

    private let log: SampleLog

    public init(configuration: Configuration, context: PluginContext) throws {
        log = SampleLog(configuration: configuration, layout: .csv, format: "csv", context: context)
    }

    public func start(context: StageContext) throws { try log.start(context: context) }
    public func write(_ batch: Batch, context: StageContext) throws { try log.write(batch, context: context) }
    public func flush(context: StageContext) throws { try log.flush(context: context) }
    public func finish(context: StageContext) throws { try log.finish(context: context) }
}
