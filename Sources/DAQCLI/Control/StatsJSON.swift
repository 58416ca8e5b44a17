import DAQCore
import Foundation

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
    }
    var pipeline: String
    var state: String
    /// Seconds on the run clock.
    var uptime: Double
    var stages: [Stage]
}

enum StatsJSON {
    static func encode(run: PipelineRun, pipeline: String) -> String {
        let stats = RunStats(
            pipeline: pipeline, state: "\(run.lifecycleState)", uptime: run.clock.now(),
            stages: run.statistics.map { s in
                RunStats.Stage(
                    name: s.name, kind: s.kind.rawValue, type: s.type, state: "\(s.state)", samplesIn: s.samplesIn,
                    samplesOut: s.samplesOut, dropped: s.dropped, errors: s.errors, buffered: s.buffered,
                    bufferCapacity: s.bufferCapacity, sent: s.sent, delivered: s.delivered, failed: s.failed,
                    bytes: s.bytes)
            })
        let data = (try? JSONEncoder().encode(stats)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
