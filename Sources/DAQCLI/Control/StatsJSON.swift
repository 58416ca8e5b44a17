import DAQCore
import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// The `stats` answer of the control socket: what `daq top` shows.
struct RunStats: Codable, Sendable {
    struct Stage: Codable, Sendable {
        var name: String
        var kind: String
        var type: String
        var state: String
        var samplesIn: Int
        var samplesOut: Int
        var dropped: Int
        var errors: Int
        var buffered: Int
        var bufferCapacity: Int
        var sent: Int
        var delivered: Int
        var failed: Int
        var bytes: Int
        /// The components it reads (from the pipeline file); `nil` from a run that did not say.
        var inputs: [String]?
    }
    /// A file the run writes, with its size on disk now.
    struct Output: Codable, Sendable {
        var path: String
        var format: String
        var bytes: Int
    }
    var pipeline: String
    var state: String
    /// Seconds on the run clock.
    var uptime: Double
    var stages: [Stage]
    /// The clock mode, the wall time the run started, its step schedule and its files; each
    /// optional, so `daq top` and `daq view` still read a run that predates them.
    var clock: String?
    var startDate: Double?
    var steps: [String]?
    var outputs: [Output]?
}

enum StatsJSON {
    static func encode(run: PipelineRun, pipeline: String) -> String {
        let inputs = Dictionary(run.spec.components.map { ($0.name, $0.inputs) }, uniquingKeysWith: { a, _ in a })
        var stats = RunStats(
            pipeline: pipeline, state: "\(run.lifecycleState)", uptime: run.clock.now(),
            stages: run.statistics.map { s in
                RunStats.Stage(
                    name: s.name, kind: s.kind.rawValue, type: s.type, state: "\(s.state)", samplesIn: s.samplesIn,
                    samplesOut: s.samplesOut, dropped: s.dropped, errors: s.errors, buffered: s.buffered,
                    bufferCapacity: s.bufferCapacity, sent: s.sent, delivered: s.delivered, failed: s.failed,
                    bytes: s.bytes, inputs: inputs[s.name])
            })
        stats.clock = "\(run.spec.clock)"
        stats.startDate = run.clock.startDate
        stats.steps = run.spec.steps.map(\.path)
        // The size on disk, not the recorder's count, which some sinks settle only at close.
        stats.outputs = run.recorder.outputs.map { f in
            var info = stat()
            let size = stat(f.path, &info) == 0 ? Int(info.st_size) : f.bytes
            return RunStats.Output(path: f.path, format: f.format, bytes: size)
        }
        let data = (try? JSONEncoder().encode(stats)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
