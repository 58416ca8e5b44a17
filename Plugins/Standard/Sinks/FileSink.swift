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
        @Setting(required: "The file to write; parent directories are created.") var path: String
        @Setting("auto: csv for *.csv, else JSON Lines.") var format = Format.auto
        @Setting("Append instead of replacing the file.") var append = false
        @Setting("fsync on every flush: delivered means on disk.") var sync = false
        @Setting("Only these fields, in this order (uptime, timestamp, stepPath, kind allowed).") var fields: [String]?
        @Setting("Write numbers with exactly this many decimals (like %.6f).") var decimals: Int?
        @Setting("Write uptime, timestamp, stepPath and kind besides the fields.") var metadata = true
        @Setting("Write step-marker rows.") var markers = true

        public init() {}

        public func validate() throws {
            if path.isEmpty { throw $path.issue("must not be empty") }
            if let decimals, !(0...17).contains(decimals) {
                throw $decimals.issue("must be 0 to 17, found \(decimals)")
            }
            if let fields, fields.isEmpty { throw $fields.issue("name at least one field") }
        }
    }

    public static let typeName = "file"
    public static let summary = "Writes samples to a JSON Lines or CSV file (buffered; `-` is standard output)."

    private let config: Configuration
    private let path: String
    private let csv: Bool
    /// The JSON Lines file, or the CSV file that grows parts as fields appear.
    private var jsonFile: OutputFile?
    private var csvFile: GrowingCSVFile?
    private var file: OutputFile? { csvFile?.output ?? jsonFile }
    /// The CSV columns when `fields` fixes them.
    private let fixedLayout: RowLayout?
    /// Without `fields`, a CSV has every field any sample had, in the order they first appeared.
    private var order = CSVFieldOrder()
    private var csvHeaderPending = true
    /// Rows written since the last flush: what the next flush delivers. Counted as written,
    /// so markers held back or left out are delivered exactly when they are sent.
    private var undelivered = 0
    /// Whether rows go after what the file held: `append`, or a reload restarted this sink and
    /// the file holds the rows of its earlier instance.
    private var appending = false
    /// Markers that came before any data: a CSV's first columns are those of the first data.
    private var beforeData = Batch()
    private var seenData = false
    private var warned: Set<String> = []

    /// `markers: false` leaves them out of what is sent.
    public var sendsMarkers: Bool { config.markers }

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        path = context.resolve(configuration.path)
        csv = configuration.format == .csv || (configuration.format == .auto && configuration.path.hasSuffix(".csv"))
        fixedLayout = configuration.fields.map { fields in
            RowLayout(
                names: (configuration.metadata ? RowLayout.metadata.filter { !fields.contains($0) } : []) + fields)
        }
    }

    public func start(context: StageContext) throws {
        appending = config.append || (context.isRestart && FileManager.default.fileExists(atPath: path))
        if csv && path != "-" {
            csvFile = try GrowingCSVFile(path: path, append: appending)
        } else {
            jsonFile = try OutputFile(path: path, append: appending)
        }
        // An appended file already has its header.
        csvHeaderPending = !appending
        if csv, fixedLayout == nil, !appending { declareColumns(context.inputDescriptor) }
        if appending && !config.append { context.notice("continuing \(path) after a reload") }
    }

    public func write(_ batch: Batch, context: StageContext) throws {
        guard file != nil else { return }
        let before = bytesWritten
        if csv && !seenData {
            // Hold markers until the first data gives the columns, so they do not start a part.
            guard batch.kinds.contains(where: { $0 != .marker }) else {
                beforeData.append(contentsOf: batch)
                return
            }
            seenData = true
            try growColumns(batch, context: context)
            try writeRows(beforeData, context: context)
            beforeData = Batch()
        }
        try writeRows(batch, context: context)
        context.wrote(bytes: bytesWritten - before)
    }

    /// Starts the CSV header with every field the input declares: only a field nobody declared
    /// starts a part file when it comes. (Markers are told apart by the `kind` column.)
    private func declareColumns(_ input: StreamDescriptor?) {
        let excluded = config.metadata ? Set(RowLayout.metadata) : []
        _ = order.add(names: (input?.fields ?? []).map(\.name).filter { !excluded.contains($0) })
    }

    private var bytesWritten: Int { csvFile?.bytesWritten ?? jsonFile?.bytesWritten ?? 0 }

    /// The CSV columns now: the configured ones, or the metadata and every field met so far.
    private var csvLayout: RowLayout {
        fixedLayout ?? RowLayout(names: (config.metadata ? RowLayout.metadata : []) + order.fields)
    }

    /// Takes the fields of `batch` no earlier sample had; once rows are in the file, the rows
    /// that follow go into a part with the wider header, merged under the final one at the end.
    private func growColumns(_ batch: Batch, context: StageContext) throws {
        guard fixedLayout == nil else { return }
        let excluded = config.metadata ? Set(RowLayout.metadata) : []
        guard let csvFile else {
            // Standard output cannot take its header back: a field met after it is reported.
            if !csvHeaderPending {
                for c in batch.columns where !order.fields.contains(c.name) && !excluded.contains(c.name) {
                    if warned.insert(c.name).inserted {
                        context.warn(
                            "field '\(c.name)' first appeared after the CSV header went to standard output; it is not written (name it in `fields`)"
                        )
                    }
                }
                return
            }
            _ = order.add(batch, excluding: excluded)
            return
        }
        guard !order.add(batch, excluding: excluded).isEmpty, !csvHeaderPending else { return }
        try csvFile.startPart()
        csvHeaderPending = true
    }

    private func writeRows(_ batch: Batch, context: StageContext) throws {
        guard !batch.isEmpty else { return }
        // Growing the columns may start a part: the file is taken after it.
        if csv { try growColumns(batch, context: context) }
        guard let file else { return }
        if csv {
            let layout = csvLayout
            if csvHeaderPending {
                try file.write((layout.names.map(CSVText.cell).joined(separator: ",") + "\n").utf8)
                csvFile?.wroteHeader(width: layout.names.count)
                csvHeaderPending = false
            }
            let sources = layout.sources(in: batch)
            try file.withBuffer { out in
                undelivered += layout.appendCSV(
                    batch, sources: sources, decimals: config.decimals, markers: config.markers, to: &out)
            }
            return
        }
        // JSON Lines: each sample with the fields it has, whatever the batch holds besides.
        let plain = config.fields == nil && config.metadata && config.decimals == nil
        let layout =
            fixedLayout ?? RowLayout(names: (config.metadata ? RowLayout.metadata : []) + batch.columns.map(\.name))
        let sources = plain ? [] : layout.sources(in: batch)
        let markers = config.markers
        let decimals = config.decimals
        try file.withBuffer { out in
            for row in 0..<batch.count {
                if batch.kinds[row] == .marker && !markers { continue }
                if plain {
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
        if !beforeData.isEmpty {
            try writeRows(beforeData, context: context)
            beforeData = Batch()
        }
        if let csvFile {
            let layout = csvLayout
            let header = Array((layout.names.map(CSVText.cell).joined(separator: ",") + "\n").utf8)
            try csvFile.finish(header: header, width: layout.names.count)
            if csvFile.keepsParts {
                let parts = csvFile.parts.dropFirst().map(\.path).joined(separator: ", ")
                context.warn(
                    "fields appeared while appending to \(path), whose header is an earlier run's: the rows with them are in \(parts)"
                )
            }
        } else {
            try jsonFile?.sync()
            try jsonFile?.close()
        }
        jsonFile = nil
        csvFile = nil
        // Markers held for a layout that never came are written only now.
        if undelivered > 0 {
            context.delivered(samples: undelivered)
            undelivered = 0
        }
    }
}
