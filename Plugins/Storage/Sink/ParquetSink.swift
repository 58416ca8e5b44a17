import DAQCore
import Foundation

/// `parquet`: each input stream to a Parquet file typed by its stream descriptor.
///
/// The run's directory gets `<stream>.parquet`, or with `roll` a folder `<stream>/` of
/// `part-00001.parquet`, … (the stream is the component feeding the sink, as the loggers name
/// their files). Columns: `timestamp` (TIMESTAMP, UTC, µs), `uptime`, `stepPath`, `kind`,
/// `marker`, then every field by its declared type; units and the descriptor are in the footer.
///
/// Markers: like the loggers, the sink keeps every marker it is given (whichever stream's batch
/// brought it) and writes it into every stream's file, before the first row at or after its
/// uptime, as a row with `kind = marker`, its mark (`start`, `step`, `pause`, `resume`, `stop`)
/// in `marker` and every field null. So a file has the rows of the CSV logger's file for the
/// same stream, in the same order, and `kind` tells samples from markers and events.
///
/// Rows are delivered when their row group is written: a killed run loses the row group it was
/// filling (and, without `roll`, the whole file, whose footer is written at the end).
///
/// # Thread safety
/// Not thread-safe: the engine calls it on its stage's serial queue only.
public final class ParquetSink: SinkPlugin {
    /// The sink's keys.
    public struct Configuration: PluginConfiguration {
        @Setting(required: "Base directory: files go into OUT/<pipeline>-<UTC start>/, shared by the run's sinks.")
        public var directory: String
        @Setting("Page compression: zstd (libzstd.so.1, loaded at run time), gzip or none.")
        public var compression = ParquetCompression.zstd
        @Setting(whenUnset: "3 for zstd, 6 for gzip", "Compression level.") public var compressionLevel: Int?
        @Setting("Rows per row group: the unit readers skip by statistics, and what a killed run loses.")
        public var rowGroupRows = 65_536
        @Setting(whenUnset: "one file per stream", "Start a new part file every rows and/or seconds.")
        public var roll: ParquetRollSettings?
        @Setting("fsync on every flush: delivered means on disk.") public var fsync = false

        public init() {}

        /// Checks what the types cannot: positive sizes, a level the codec has, a roll with a limit.
        /// - Throws: ``ConfigIssue`` naming the key.
        public func validate() throws {
            if directory.isEmpty { throw $directory.issue("must not be empty") }
            if rowGroupRows < 1 { throw $rowGroupRows.issue("must be at least 1, found \(rowGroupRows)") }
            if let level = compressionLevel {
                switch compression {
                case .zstd where !(1...22).contains(level):
                    throw $compressionLevel.issue("zstd levels are 1 to 22, found \(level)")
                case .gzip where !(1...9).contains(level):
                    throw $compressionLevel.issue("gzip levels are 1 to 9, found \(level)")
                case .none: throw $compressionLevel.issue("has no meaning with compression: none")
                default: break
                }
            }
            try roll?.validate(key: "roll")
        }
    }

    /// `type: parquet`.
    public static let typeName = "parquet"
    /// What `daq plugins` prints.
    public static let summary =
        "Parquet files typed by the stream descriptor (zstd, gzip or none), one per input stream."

    private let settings: ParquetSinkSettings
    private let base: String
    private var directory = ""
    private var writers: [String: ParquetStreamWriter] = [:]
    private var opened: [ParquetStreamWriter] = []
    private var markers: [ParquetMarker] = []
    private var reportedSamples = 0
    private var reportedBytes = 0
    private var sentBytes = 0

    /// Builds the sink.
    /// - Throws: ``ConfigIssue`` on `compression` when zstd is asked for and libzstd cannot be loaded.
    public init(configuration: Configuration, context: PluginContext) throws {
        settings = ParquetSinkSettings(configuration)
        base = context.resolve(configuration.directory)
        if settings.codec == .zstd {
            // A missing library is a configuration problem: say so before the run starts.
            do { _ = try ZstdLibrary.shared() } catch {
                throw ConfigIssue(key: "compression", "\(error)")
            }
        }
    }

    /// Creates the run directory.
    public func start(context: StageContext) throws {
        directory = try context.runDirectory(under: base)
    }

    /// Keeps the markers of `batch` and buffers its data and events in its stream's row group.
    public func write(_ batch: Batch, context: StageContext) throws {
        for row in 0..<batch.count where batch.kinds[row] == .marker {
            markers.append(ParquetMarker(batch, row: row))
        }
        if batch.kinds.contains(where: { $0 != .marker }) {
            try writer(for: batch.stream, descriptor: batch.descriptor, context: context).write(
                batch, markers: markers, warn: context.warn)
        }
        reportSent(context)
    }

    /// Hands written row groups to the kernel and reports the rows in them as delivered.
    public func flush(context: StageContext) throws {
        for w in opened { try w.flush() }
        report(context: context)
    }

    /// Writes the remaining markers and rows and closes every file with its footer.
    public func finish(context: StageContext) throws {
        // A sink that saw no data still leaves a file (its markers), as the loggers do.
        if opened.isEmpty {
            _ = try writer(for: context.name, descriptor: context.inputDescriptors.values.first, context: context)
        }
        for w in opened { try w.finish(markers: markers) }
        reportSent(context)
        report(context: context)
        if markers.count > 0 { context.delivered(samples: markers.count) }
    }

    private func reportSent(_ context: StageContext) {
        let bytes = opened.reduce(0) { $0 + $1.bytesWritten }
        if bytes > sentBytes { context.wrote(bytes: bytes - sentBytes) }
        sentBytes = bytes
    }

    /// Reports rows delivered since the last report and every file's running totals.
    private func report(context: StageContext) {
        let samples = opened.reduce(0) { $0 + $1.committedSamples }
        let bytes = opened.reduce(0) { $0 + $1.bytesWritten }
        if samples > reportedSamples {
            context.delivered(samples: samples - reportedSamples, bytes: bytes - reportedBytes)
            reportedSamples = samples
            reportedBytes = bytes
        }
        for w in opened {
            for file in w.closed {
                context.recordOutput(path: file.path, format: "parquet", samples: file.rows, bytes: file.bytes)
            }
            if let file = w.open {
                context.recordOutput(path: file.path, format: "parquet", samples: file.rows, bytes: file.bytes)
            }
        }
    }

    private func writer(for stream: String, descriptor: StreamDescriptor?, context: StageContext) throws
        -> ParquetStreamWriter
    {
        if let w = writers[stream] { return w }
        var id = stream.replacingOccurrences(of: "/", with: "_")
        if id.isEmpty || id == "." || id == ".." || id == "manifest" { id = "stream-" + id }
        let dir = directory as NSString
        let target: ParquetStreamWriter.Target
        if settings.roll != nil {
            var folder = dir.appendingPathComponent(id)
            if FileManager.default.fileExists(atPath: folder) {
                folder = dir.appendingPathComponent("\(id)-\(context.name)")
            }
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            target = .folder(folder)
        } else {
            var path = dir.appendingPathComponent("\(id).parquet")
            if FileManager.default.fileExists(atPath: path) {
                // Another sink of the run (or this one before a reload) wrote that file.
                path = dir.appendingPathComponent("\(id)-\(context.name).parquet")
                context.warn("\(id).parquet is written by another sink of this run; writing \(path) instead")
            }
            target = .file(path)
        }
        let w = ParquetStreamWriter(
            stream: stream, target: target, settings: settings,
            descriptor: descriptor ?? context.inputDescriptors[stream])
        writers[stream] = w
        opened.append(w)
        return w
    }
}

/// `compression:` of the `parquet` sink.
public enum ParquetCompression: String, ConfigEnum, Sendable {
    case zstd, gzip, none
}

/// What a stream writer needs of the configuration.
struct ParquetSinkSettings: Sendable {
    var codec: ParquetCodec
    var level: Int32?
    var rowGroupRows: Int
    var roll: (rows: Int?, seconds: Seconds?)?
    var fsync: Bool

    init(_ c: ParquetSink.Configuration) {
        switch c.compression {
        case .zstd: codec = .zstd
        case .gzip: codec = .gzip
        case .none: codec = .uncompressed
        }
        level = c.compressionLevel.map(Int32.init)
        rowGroupRows = c.rowGroupRows
        roll = c.roll.map { ($0.rows, $0.seconds) }
        fsync = c.fsync
    }

    init(codec: ParquetCodec, level: Int32? = nil, rowGroupRows: Int, roll: (rows: Int?, seconds: Seconds?)?) {
        self.codec = codec
        self.level = level
        self.rowGroupRows = rowGroupRows
        self.roll = roll
        fsync = false
    }
}
