import DAQCore
import Foundation

/// Writes samples to a JSON Lines or CSV file, buffered, flushed on the run's interval.
///
/// `fields` picks and orders the columns (the metadata names `uptime`, `timestamp`, `stepPath`
/// and `kind` are allowed among them); `decimals` writes numbers fixed-point; `metadata: false`
/// and `markers: false` leave only the data columns and rows — exactly the CSV another tool expects.
public final class FileSink: SinkPlugin {
    public enum Format: String, ConfigEnum, Sendable {
        case auto, jsonl, csv
    }

    public struct Configuration: PluginConfiguration {
        var path: String
        var format: Format = .auto
        var append = false
        var sync = false
        var fields: [String]?
        var decimals: Int?
        var metadata = true
        var markers = true

        enum CodingKeys: String, CodingKey { case path, format, append, sync, fields, decimals, metadata, markers }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decode(String.self, forKey: .path)
            format = try c.decodeIfPresent(Format.self, forKey: .format) ?? .auto
            append = try c.decodeIfPresent(Bool.self, forKey: .append) ?? false
            sync = try c.decodeIfPresent(Bool.self, forKey: .sync) ?? false
            fields = try c.decodeIfPresent([String].self, forKey: .fields)
            decimals = try c.decodeIfPresent(Int.self, forKey: .decimals)
            metadata = try c.decodeIfPresent(Bool.self, forKey: .metadata) ?? true
            markers = try c.decodeIfPresent(Bool.self, forKey: .markers) ?? true
        }

        public func validate() throws {
            if path.isEmpty { throw ConfigIssue(key: "path", "must not be empty") }
            if let decimals, !(0...17).contains(decimals) { throw ConfigIssue(key: "decimals", "must be 0 to 17, found \(decimals)") }
            if let fields, fields.isEmpty { throw ConfigIssue(key: "fields", "name at least one field") }
        }
    }

    public static let typeName = "file"
    public static let summary = "Writes samples to a JSON Lines or CSV file (buffered; `-` is standard output)."
    public static let configKeys: [ConfigKey] = [
        .required("path", "string", "The file to write; parent directories are created."),
        ConfigKey("format", Format.choices, default: "auto", "auto: csv for *.csv, else JSON Lines."),
        ConfigKey("append", "bool", default: "false", "Append instead of replacing the file."),
        ConfigKey("sync", "bool", default: "false", "fsync on every flush: delivered means on disk."),
        ConfigKey("fields", "[string]", "Only these fields, in this order (uptime, timestamp, stepPath, kind allowed)."),
        ConfigKey("decimals", "int", "Write numbers with exactly this many decimals (like %.6f)."),
        ConfigKey("metadata", "bool", default: "true", "Write uptime, timestamp, stepPath and kind besides the fields."),
        ConfigKey("markers", "bool", default: "true", "Write step-marker rows."),
    ]

    private let config: Configuration
    private let path: String
    private let csv: Bool
    private var file: OutputFile?
    private var layout: RowLayout?
    /// Rows written since the last flush: what the next flush delivers. Counted as written,
    /// so markers held back or left out are delivered exactly when they are sent.
    private var undelivered = 0
    private var headerWritten = false
    /// Whether rows go after what the file held: `append`, or a reload restarted this sink and
    /// the file holds the rows of its earlier instance.
    private var appending = false
    private var warnedColumns: Set<String> = []
    private var beforeLayout = Batch()

    /// `markers: false` leaves them out of what is sent.
    public var sendsMarkers: Bool { config.markers }

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        path = context.resolve(configuration.path)
        csv = configuration.format == .csv || (configuration.format == .auto && configuration.path.hasSuffix(".csv"))
    }

    public func start(context: StageContext) throws {
        appending = config.append || (context.isRestart && FileManager.default.fileExists(atPath: path))
        file = try OutputFile(path: path, append: appending)
        if appending && !config.append { context.notice("continuing \(path) after a reload") }
        if let fields = config.fields {
            layout = RowLayout(names: (config.metadata ? RowLayout.metadata.filter { !fields.contains($0) } : []) + fields)
        }
    }

    public func write(_ batch: Batch, context: StageContext) throws {
        guard let file else { return }
        let before = file.bytesWritten
        if layout == nil {
            // Without `fields`, the first batch holding data fixes the columns; hold markers until then.
            guard batch.kinds.contains(where: { $0 != .marker }) else {
                beforeLayout.append(contentsOf: batch)
                return
            }
            layout = RowLayout(names: (config.metadata ? RowLayout.metadata : []) + batch.columns.map(\.name))
            try writeRows(beforeLayout, file: file)
            beforeLayout = Batch()
        }
        for c in batch.columns where !layout!.names.contains(c.name) && config.fields == nil && warnedColumns.insert(c.name).inserted {
            context.warn("field '\(c.name)' first appeared after \(path) was started; it is not written (name it in `fields`)")
        }
        try writeRows(batch, file: file)
        context.wrote(bytes: file.bytesWritten - before)
    }

    private func writeRows(_ batch: Batch, file: OutputFile) throws {
        guard let layout, !batch.isEmpty else { return }
        if csv && !headerWritten && !appending {
            try file.write((layout.names.joined(separator: ",") + "\n").utf8)
            headerWritten = true
        }
        let sources = layout.sources(in: batch)
        let decimals = config.decimals
        try file.withBuffer { out in
            if csv {
                undelivered += layout.appendCSV(
                    batch, sources: sources, decimals: decimals, markers: config.markers, to: &out)
                return
            }
            for row in 0..<batch.count {
                if batch.kinds[row] == .marker && !config.markers { continue }
                if config.fields == nil && config.metadata && decimals == nil {
                    SampleJSON.appendLine(batch, row: row, to: &out)
                } else {
                    layout.appendJSON(batch, row: row, sources: sources, decimals: decimals, to: &out)
                }
                undelivered += 1
            }
        }
    }

    public func flush(context: StageContext) throws {
        guard let file else { return }
        if config.sync { try file.sync() } else { try file.flush() }
        if undelivered > 0 {
            context.delivered(samples: undelivered)
            undelivered = 0
        }
    }

    public func finish(context: StageContext) throws {
        if layout == nil, !beforeLayout.isEmpty, let file {
            layout = RowLayout(names: config.metadata ? RowLayout.metadata : [])
            try writeRows(beforeLayout, file: file)
        }
        try file?.sync()
        try file?.close()
        file = nil
        // Markers held for a layout that never came are written only now.
        if undelivered > 0 {
            context.delivered(samples: undelivered)
            undelivered = 0
        }
    }
}
