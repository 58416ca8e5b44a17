// daq-bench: measurements that need the engine from the inside.
//
//   swift run -c release daq-bench replay-timing [RECORDING] [SECONDS]
//   swift run -c release daq-bench ble-decode [CAPTURE] [REPORTS]
//   swift run -c release daq-bench batch-fill [ROWS] [--typed]
//   swift run -c release daq-bench resolve [IDS] [HITS]
//   swift run -c release daq-bench mqtt [MESSAGES]
//   swift run -c release daq-bench gt3x-read [HOURS] [--packed]
//   swift run -c release daq-bench geneactiv-read [HOURS]
//   swift run -c release daq-bench cwa-read [HOURS] [--unpacked]
//   swift run -c release daq-bench activity-cwa PATH [DAYS] [RATE]
//
// replay-timing replays a recording at speed 1 on the replay clock and, in a sink, compares
// each sample's arrival with its schedule (run start + uptime): the lateness a live consumer
// sees. Prints p50, p99 and max in milliseconds.
import DAQCore
import DAQKit
import Dispatch
import Foundation
import Synchronization

/// Records, for every data sample, how late it reached the sink.
final class LatenessSink: SinkPlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "lateness"
    static let summary = "records arrival minus schedule per sample"
    static let samples = Mutex<[Double]>([])

    init(configuration: Configuration, context: PluginContext) throws {}

    func write(_ batch: Batch, context: StageContext) throws {
        let now = context.clock.elapsedWallSeconds() * context.clock.speed
        let late = (0..<batch.count).filter { batch.kinds[$0] == .data }.map { now - batch.uptimes[$0] }
        LatenessSink.samples.withLock { $0.append(contentsOf: late) }
    }
}

func replayTiming(recording: String, seconds: Double) throws {
    let yaml = """
        name: replay-timing
        clock: replay
        speed: 1
        sources: {rec: {type: motion.replay, path: "\(recording)", end: \(seconds)}}
        sinks: {probe: {type: lateness, inputs: [rec]}}
        """
    let registry = try PluginRegistry(BuiltinPlugins.all + [.sink(LatenessSink.self)])
    let spec = try PipelineLoader(registry: registry).load(text: yaml, file: "replay-timing")
    let run = try PipelineRun(spec: spec)
    try run.start()
    let result = run.wait()
    let late = LatenessSink.samples.withLock { $0 }.sorted()
    guard !late.isEmpty else { throw BenchError("no samples") }
    func pct(_ p: Double) -> Double { late[min(late.count - 1, Int(Double(late.count) * p))] * 1000 }
    print(
        "replay-timing: \(late.count) samples over \(String(format: "%.1f", result.endDate - result.startDate)) s at speed 1"
    )
    print(
        String(
            format: "lateness ms: p50 %.3f  p99 %.3f  max %.3f  (min %.3f)", pct(0.5), pct(0.99), late.last! * 1000,
            late.first! * 1000))
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// Peak resident set size of this process, MiB.
func peakRSSMiB() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_maxrss) / 1024
}

let args = CommandLine.arguments.dropFirst()
switch args.first {
case "replay-timing":
    let rest = Array(args.dropFirst())
    try replayTiming(
        recording: rest.first ?? "recordings/walk.csv", seconds: rest.count > 1 ? Double(rest[1]) ?? 20 : 20)
case "batch-fill":
    let rest = args.dropFirst().filter { $0 != "--typed" }
    batchFill(rows: rest.first.flatMap { Int($0) } ?? 2_000_000, typed: args.contains("--typed"))
case "ble-decode":
    let rest = Array(args.dropFirst())
    try bleDecode(
        capture: rest.first ?? "recordings/beacons.btsnoop",
        reports: rest.count > 1 ? Int(rest[1]) ?? 2_000_000 : 2_000_000)
case "resolve":
    let rest = Array(args.dropFirst())
    try resolveBench(
        ids: rest.first.flatMap { Int($0) } ?? 20_000, hits: rest.count > 1 ? Int(rest[1]) ?? 5_000_000 : 5_000_000)
case "mqtt":
    try mqttBench(messages: args.count > 1 ? Int(args[args.startIndex + 1]) ?? 200_000 : 200_000)
case "gt3x-read":
    let rest = args.dropFirst().filter { $0 != "--packed" }
    try gt3xRead(hours: rest.first.flatMap { Double($0) } ?? 24, packed: args.contains("--packed"))
case "cwa-read":
    let rest = args.dropFirst().filter { $0 != "--unpacked" }
    try cwaRead(hours: rest.first.flatMap { Double($0) } ?? 24, packed: !args.contains("--unpacked"))
case "geneactiv-read":
    try geneactivRead(hours: args.dropFirst().first.flatMap { Double($0) } ?? 24)
case "activity-cwa":
    let rest = Array(args.dropFirst())
    guard let path = rest.first else {
        print("usage: daq-bench activity-cwa PATH [DAYS] [RATE]")
        exit(64)
    }
    try activityFile(
        path: path, days: rest.count > 1 ? Double(rest[1]) ?? 7 : 7, rate: rest.count > 2 ? Double(rest[2]) ?? 100 : 100
    )
default:
    print(
        "usage: daq-bench replay-timing [RECORDING] [SECONDS] | ble-decode [CAPTURE] [REPORTS] | batch-fill [ROWS] [--typed] | resolve [IDS] [HITS] | mqtt [MESSAGES] | gt3x-read [HOURS] [--packed] | cwa-read [HOURS] [--unpacked] | geneactiv-read [HOURS] | activity-cwa PATH [DAYS] [RATE]"
    )
    exit(64)
}
