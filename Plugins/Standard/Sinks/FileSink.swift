import DAQCore

/// Writes samples to a JSON Lines or CSV file, buffered, flushed on the run's interval.
public final class FileSink: SinkPlugin {
    public enum Format: String, ConfigEnum, Sendable {
        case auto, jsonl, csv
    }

    public struct Configuration: PluginConfiguration {
        var path: String
        var format: Format = .auto
        var append = false
        var sync = false

        enum CodingKeys: String, CodingKey { case path, format, append, sync }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            path = try c.decode(String.self, forKey: .path)
            format = try c.decodeIfPresent(Format.self, forKey: .format) ?? .auto
            append = try c.decodeIfPresent(Bool.self, forKey: .append) ?? false
            sync = try c.decodeIfPresent(Bool.self, forKey: .sync) ?? false
        }

        public func validate() throws {
            if path.isEmpty { throw ConfigIssue(key: "path", "must not be empty") }
        }
    }

    public static let typeName = "file"
    public static let summary = "Writes samples to a JSON Lines or CSV file (buffered; `-` is standard output)."
    public static let configKeys: [ConfigKey] = [
        .required("path", "string", "The file to write; parent directories are created."),
        ConfigKey("format", Format.choices, default: "auto", "auto: csv for *.csv, else JSON Lines."),
        ConfigKey("append", "bool", default: "false", "Append instead of replacing the file."),
        ConfigKey("sync", "bool", default: "false", "fsync on every flush: delivered means on disk."),
    ]

    private let config: Configuration
    private let path: String
    private let csv: Bool
    private var file: OutputFile?
    private var header: [String]?
    private var undelivered = 0
    private var warnedColumns: Set<String> = []
    private var beforeHeader = Batch()

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        path = context.resolve(configuration.path)
        csv = configuration.format == .csv || (configuration.format == .auto && configuration.path.hasSuffix(".csv"))
    }

    public func start(context: StageContext) throws {
        file = try OutputFile(path: path, append: config.append)
    }

    public func write(_ batch: Batch, context: StageContext) throws {
        guard let file else { return }
        let before = file.bytesWritten
        if csv {
            try writeCSV(batch, to: file, context: context)
        } else {
            try file.withBuffer { buffer in
                for row in 0..<batch.count { SampleJSON.appendLine(batch, row: row, to: &buffer) }
            }
        }
        undelivered += batch.count
        context.wrote(bytes: file.bytesWritten - before)
    }

    private func writeCSV(_ batch: Batch, to file: OutputFile, context: StageContext) throws {
        if header == nil {
            // Markers carry no fields: hold them until data fixes the columns.
            guard batch.kinds.contains(where: { $0 != .marker }) else {
                beforeHeader.append(contentsOf: batch)
                return
            }
            header = batch.columns.map(\.name)
            try file.write(("uptime,timestamp,stepPath,kind," + header!.joined(separator: ",") + "\n").utf8)
            try writeCSVRows(beforeHeader, columns: header!, to: file)
            beforeHeader = Batch()
        }
        for c in batch.columns where !header!.contains(c.name) && warnedColumns.insert(c.name).inserted {
            context.warn("field '\(c.name)' appeared after the CSV header was written; it is not in \(path)")
        }
        try writeCSVRows(batch, columns: header!, to: file)
    }

    private func writeCSVRows(_ batch: Batch, columns: [String], to file: OutputFile) throws {
        guard header != nil else { return }
        let indices = columns.map { batch.columnIndex($0) }
        try file.withBuffer { out in
            for row in 0..<batch.count {
                JSONEncoding.appendDouble(batch.uptimes[row], to: &out)
                out.append(UInt8(ascii: ","))
                JSONEncoding.appendDouble(batch.timestamps[row], to: &out)
                out.append(UInt8(ascii: ","))
                CSVText.appendCell(batch.stepPaths[row], to: &out)
                out.append(UInt8(ascii: ","))
                out.append(contentsOf: batch.kinds[row].name.utf8)
                for index in indices {
                    out.append(UInt8(ascii: ","))
                    guard let index else { continue }
                    CSVText.append(batch.columns[index][row], to: &out)
                }
                out.append(0x0A)
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
        if header == nil, !beforeHeader.isEmpty, let file {
            header = []
            try file.write("uptime,timestamp,stepPath,kind\n".utf8)
            try writeCSVRows(beforeHeader, columns: [], to: file)
        }
        try file?.sync()
        try file?.close()
        file = nil
    }
}

/// CSV cells: quoted only when they hold a delimiter, a quote or a line break.
enum CSVText {
    static func append(_ v: Value, to out: inout [UInt8]) {
        switch v {
        case .null: break
        case .string(let s): appendCell(s, to: &out)
        case .double(let d): JSONEncoding.appendDouble(d, to: &out)
        case .int(let i): NumberFormatting.appendInt(i, to: &out)
        case .bool(let b): out.append(contentsOf: (b ? "true" : "false").utf8)
        default:
            var json: [UInt8] = []
            JSONEncoding.append(v, to: &json)
            appendCell(String(decoding: json, as: UTF8.self), to: &out)
        }
    }

    static func appendCell(_ s: String, to out: inout [UInt8]) {
        let needsQuotes = s.utf8.contains { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: "\"") || $0 == 0x0A || $0 == 0x0D }
        guard needsQuotes else {
            out.append(contentsOf: s.utf8)
            return
        }
        out.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            if b == UInt8(ascii: "\"") { out.append(b) }
            out.append(b)
        }
        out.append(UInt8(ascii: "\""))
    }
}
