import DAQCore
import Foundation

/// What the three logger sinks share: one file per input stream in the run directory, every
/// marker in every file, and delivery and manifest reporting on each flush.
///
/// Markers reach the sink once, inside whichever stream's batch crossed the step first; the
/// sink keeps them in one list and each ``LogFile`` writes them before its first sample at or
/// after the marker's uptime, so each file holds them in order with its own data.
///
/// # Thread safety
/// Not thread-safe: its sink calls it on the stage's serial queue only.
final class SampleLog {
    private let config: LoggerConfiguration
    private let layout: LogFile.Layout
    /// `json`, `jsonl` or `csv`: the file extension and the manifest's format.
    let format: String
    private let base: String
    private var directory = ""
    private var files: [String: LogFile] = [:]
    /// Files in the order they were opened, so reports and finishing are deterministic.
    private var opened: [LogFile] = []
    private var markers: [LogMarker] = []
    private var reportedSamples = 0
    private var reportedMarkers = 0
    private var reportedBytes = 0

    init(configuration: LoggerConfiguration, layout: LogFile.Layout, format: String, context: PluginContext) {
        config = configuration
        self.layout = layout
        self.format = format
        base = context.resolve(configuration.directory)
    }

    func start(context: StageContext) throws {
        directory = try context.runDirectory(under: base)
    }

    func write(_ batch: Batch, context: StageContext) throws {
        let before = opened.reduce(0) { $0 + $1.bytesWritten }
        for row in 0..<batch.count where batch.kinds[row] == .marker {
            markers.append(LogMarker(batch, row: row))
        }
        if batch.kinds.contains(where: { $0 != .marker }) {
            try file(for: batch.stream, descriptor: batch.descriptor, context: context).write(
                batch, markers: markers, warn: context.warn)
        }
        context.wrote(bytes: opened.reduce(0) { $0 + $1.bytesWritten } - before)
    }

    func flush(context: StageContext) throws {
        for file in opened { try file.flush(sync: config.fsync) }
        report(context: context)
    }

    func finish(context: StageContext) throws {
        // A configured stream that never produced still gets its file (markers only), so a
        // run always leaves the same set of files; a sink that saw no data at all gets one too.
        for stream in config.identifiers.keys.sorted() where files[stream] == nil {
            _ = try file(for: stream, context: context)
        }
        if opened.isEmpty { _ = try file(for: context.name, context: context) }
        for file in opened { try file.finish(markers: markers, fallbackT0: context.startDate, warn: context.warn) }
        report(context: context)
    }

    /// Reports samples delivered since the last report and every file's running totals.
    private func report(context: StageContext) {
        let samples = opened.reduce(0) { $0 + $1.samples }
        // A marker is delivered once every file holds it.
        let markersEverywhere = opened.map(\.nextMarker).min() ?? 0
        let newMarkers = max(0, markersEverywhere - reportedMarkers)
        let bytes = opened.reduce(0) { $0 + $1.bytesFlushed }
        if samples > reportedSamples || newMarkers > 0 {
            context.delivered(samples: samples - reportedSamples + newMarkers, bytes: bytes - reportedBytes)
            reportedSamples = samples
            reportedMarkers += newMarkers
            reportedBytes = bytes
        }
        for file in opened {
            context.recordOutput(path: file.path, format: format, samples: file.items, bytes: file.bytesFlushed)
        }
    }

    /// The file of `stream`, opened on first use: dated in the zone its stream was recorded in.
    private func file(for stream: String, descriptor: StreamDescriptor? = nil, context: StageContext) throws -> LogFile
    {
        if let file = files[stream] { return file }
        let path = freePath(identifier: identifier(for: stream), context: context)
        let described = descriptor ?? context.inputDescriptors[stream]
        let file = try LogFile(
            path: path, layout: layout, decimals: config.decimals, runStart: context.startDate, stream: described)
        files[stream] = file
        opened.append(file)
        context.recordOutput(path: path, format: format, samples: 0, bytes: 0)
        return file
    }

    private func identifier(for stream: String) -> String {
        if let id = config.identifiers[stream] { return id }
        // A stream name is a component name; make it a file name that cannot leave the directory.
        let id = stream.replacingOccurrences(of: "/", with: "_")
        return LoggerConfiguration.problem(withIdentifier: id) == nil ? id : "stream-" + id
    }

    /// `<identifier>.<ext>` in the run directory, unless another sink of the run already wrote
    /// that file (two loggers of one format reading one stream, or this sink before a reload
    /// restarted it): then the sink's name is added.
    private func freePath(identifier: String, context: StageContext) -> String {
        let dir = directory as NSString
        var path = dir.appendingPathComponent("\(identifier).\(format)")
        guard FileManager.default.fileExists(atPath: path) else { return path }
        var n = 1
        repeat {
            let suffix = n == 1 ? context.name : "\(context.name)-\(n)"
            path = dir.appendingPathComponent("\(identifier)-\(suffix).\(format)")
            n += 1
        } while FileManager.default.fileExists(atPath: path)
        if context.isRestart {
            // A JSON document that was closed cannot be continued: the new instance gets its own file.
            context.notice(
                "\(identifier).\(format) holds what this sink wrote before the reload; writing \(path) from now on")
        } else {
            context.warn("\(identifier).\(format) is written by another sink of this run; writing \(path) instead")
        }
        return path
    }
}
