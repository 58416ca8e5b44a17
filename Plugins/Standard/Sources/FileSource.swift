import DAQCore

/// What to do with a line that cannot be decoded.
public enum OnBadRow: String, ConfigEnum, Sendable {
    /// Fail the source, naming the file and line.
    case fail
    /// Skip it, reporting file and line as a warning and counting it.
    case skip
}

/// Streams samples from a JSON Lines or CSV file, in constant memory.
public final class FileSource: SourcePlugin {
    public struct Configuration: PluginConfiguration {
        var path: String
        var format: RecordDecoder.Format = .auto
        var delimiter: String = ","
        var timeField: String?
        var rate: Double?
        var onBadRow: OnBadRow = .fail

        enum CodingKeys: String, CodingKey {
            case path, format, delimiter, rate
            case timeField = "time_field"
            case onBadRow = "on_bad_row"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decode(String.self, forKey: .path)
            format = try c.decodeIfPresent(RecordDecoder.Format.self, forKey: .format) ?? .auto
            delimiter = try c.decodeIfPresent(String.self, forKey: .delimiter) ?? ","
            timeField = try c.decodeIfPresent(String.self, forKey: .timeField)
            rate = try c.decodeIfPresent(Double.self, forKey: .rate)
            onBadRow = try c.decodeIfPresent(OnBadRow.self, forKey: .onBadRow) ?? .fail
        }

        public func validate() throws {
            if path.isEmpty { throw ConfigIssue(key: "path", "must not be empty") }
            if delimiter.utf8.count != 1 && delimiter != "\\t" {
                throw ConfigIssue(key: "delimiter", "expected one character such as ',', ';' or '\\t'")
            }
            if let rate, !(rate > 0) { throw ConfigIssue(key: "rate", "must be greater than 0 Hz") }
        }

        var delimiterByte: UInt8 { delimiter == "\\t" ? 0x09 : delimiter.utf8.first! }
    }

    public static let typeName = "file"
    public static let summary = "Samples from a JSON Lines or CSV file, streamed in constant memory."
    public static let configKeys: [ConfigKey] = [
        .required("path", "string", "The file to read."),
        ConfigKey("format", RecordDecoder.Format.choices, default: "auto", "auto: '{' starts JSON Lines, else CSV with a header."),
        ConfigKey("delimiter", "string", default: ",", "CSV cell delimiter (one character, or \\t)."),
        ConfigKey("time_field", "string", "Field holding seconds; uptime counts from its first value."),
        ConfigKey("rate", "double (Hz)", "When records carry no time: sample i is at i / rate."),
        ConfigKey("on_bad_row", OnBadRow.choices, default: "fail", "fail stops at a bad line; skip reports and skips it."),
    ]

    private let config: Configuration
    private let path: String
    private var reader: LineReader?
    private var decoder: RecordDecoder
    private var timing: RecordTiming

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        path = context.resolve(configuration.path)
        decoder = RecordDecoder(format: configuration.format, delimiter: configuration.delimiterByte, timeField: configuration.timeField)
        timing = RecordTiming(timeField: configuration.timeField, rate: configuration.rate)
    }

    public func start(context: StageContext) throws {
        reader = try LineReader(path: path)
    }

    public func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        guard let reader else { return .finished }
        while batch.count < limit {
            var decoded: (meta: Fields, fields: Fields)?
            var bad: (reason: String, raw: String)?
            let result = try reader.nextLine { line in
                do {
                    decoded = try decoder.decode(line)
                } catch {
                    bad = ("\(error)", String(decoding: line, as: UTF8.self))
                }
            }
            if result == .end { return .finished }
            if let bad {
                let message = "\(path):\(reader.lineNumber): \(bad.reason)"
                try context.badInput(
                    raw: bad.raw, uptime: batch.uptimes.last ?? 0, message: message, pluginSkips: config.onBadRow == .skip,
                    failure: RecordError(message: message))
                continue
            }
            guard let decoded else { continue }
            let (u, ts) = timing.place(meta: decoded.meta, fields: decoded.fields, startDate: context.startDate)
            batch.appendRecord(uptime: u, timestamp: ts, meta: decoded.meta, fields: decoded.fields)
        }
        return .more
    }

    public func stop(context: StageContext) {
        reader = nil
    }
}

/// A record that cannot be read, with its file and line.
struct RecordError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
