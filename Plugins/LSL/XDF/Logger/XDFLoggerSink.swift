import DAQCore
import Foundation

/// `logger.xdf`: writes a run as one XDF file that pyxdf, MNE's and EEGLAB's loaders read.
///
/// Each input stream becomes an XDF stream declared from its descriptor before its first sample:
/// its numeric fields as channels (double64, or int64 when every one is an integer), or its text
/// fields in a string stream when it has no numeric one. Step markers and events go to a string
/// stream of their own (`markers`). Time stamps are each sample's `timestamp`, seconds since 1970,
/// and the file header says so (`<unix_offset>0</unix_offset>`), so `xdf.replay` gives the same
/// timestamps back. Every stream of a run is stamped on one clock: the ClockOffset chunks say 0,
/// honestly. Samples, clock offsets and a Boundary chunk are written at each flush; footers at
/// the end. A run killed mid-way leaves a file pyxdf reads; `daq repair` adds its footers.
public final class XDFLoggerSink: SinkPlugin {
    public struct Configuration: PluginConfiguration {
        @Setting(required: "Base directory: the file goes into OUT/<pipeline>-<UTC start>/, shared by the run's sinks.")
        var directory: String
        @Setting(whenUnset: "the sink's name", "The file's name, without .xdf.")
        var file: String?
        @Setting("Write step markers and events as a string stream.") var markers = true
        @Setting("fsync on every flush: delivered means on disk.") var fsync = false

        public init() {}

        public func validate() throws {
            if directory.isEmpty { throw $directory.issue("must not be empty") }
            if let file, file.isEmpty || file.contains("/") || file == "manifest" {
                throw $file.issue("must be a file name (not a path, not 'manifest'), found '\(file)'")
            }
        }
    }

    public static let typeName = "logger.xdf"
    public static let summary =
        "Writes the run as an XDF file (a stream per input, markers as a string stream) that pyxdf and MNE read."

    private let config: Configuration
    private let base: String
    private var state = XDFLoggerState.idle

    public init(configuration: Configuration, context: PluginContext) throws {
        config = configuration
        base = context.resolve(configuration.directory)
    }

    public func start(context: StageContext) throws {
        let directory = try context.runDirectory(under: base)
        let name = config.file ?? context.name
        // A reload's new instance writes beside what the old one closed: an XDF file holds one run of headers.
        var path = (directory as NSString).appendingPathComponent(name + ".xdf")
        var n = 2
        while FileManager.default.fileExists(atPath: path) {
            path = (directory as NSString).appendingPathComponent("\(name)-\(n).xdf")
            n += 1
        }
        let file = try XDFLogFile(
            path: path, inputs: context.inputDescriptors, markers: config.markers, runStart: context.startDate,
            sinkName: context.name)
        for note in file.notes { context.notice(note) }
        state = .writing(file)
        context.recordOutput(path: path, format: "xdf", samples: 0, bytes: 0)
    }

    public func write(_ batch: Batch, context: StageContext) throws {
        guard case .writing(let file) = state else { return }
        let before = file.bytesWritten
        try file.add(batch)
        context.wrote(bytes: file.bytesWritten - before)
    }

    public func flush(context: StageContext) throws {
        guard case .writing(let file) = state else { return }
        try file.flush(sync: config.fsync)
        report(file, context: context)
    }

    public func finish(context: StageContext) throws {
        guard case .writing(let file) = state else { return }
        state = .closed
        try file.finish(fallbackT0: context.startDate)
        report(file, context: context)
        if file.nulls > 0 {
            context.notice("\(file.nulls) missing value(s) written as NaN (0 in int64 streams, \"\" in text ones)")
        }
    }

    private func report(_ file: XDFLogFile, context: StageContext) {
        let delivered = file.takeDelivered()
        if delivered > 0 { context.delivered(samples: delivered, bytes: 0) }
        context.recordOutput(path: file.path, format: "xdf", samples: file.samplesWritten, bytes: file.bytesFlushed)
    }
}

/// The sink's lifecycle: a file exists only while it writes.
enum XDFLoggerState {
    case idle
    case writing(XDFLogFile)
    case closed
}
