// resolve: infomanager.resolve against the reference server on loopback, in this process.
//
// Uncached: IDS distinct ids, each asked of the service, with 1, 8 and 32 requests in flight.
// Cache hits: HITS samples cycling through ids already in the cache, against the same
// pipeline without the resolver, so the resolver's own cost per sample can be read off.
import DAQCore
import DAQInfoManager
import DAQInfoManagerServer
import DAQKit
import Dispatch
import Foundation
import Synchronization

/// Emits `count` samples whose `id` cycles through `ids`; the values are made once.
final class IdSource: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting(required: "ids to emit") var count: Int
        @Setting(required: "distinct ids among them") var distinct: Int
    }
    static let typeName = "bench.ids"
    static let summary = "ids for the resolver benchmark"

    private let ids: [Value]
    private let count: Int
    private var emitted = 0

    init(configuration: Configuration, context: PluginContext) throws {
        ids = (0..<configuration.distinct).map { .string(benchId($0)) }
        count = configuration.count
    }

    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        let n = min(limit, count - emitted)
        var column = [Value]()
        column.reserveCapacity(n)
        for i in 0..<n {
            batch.appendRow(uptime: 0, timestamp: 0)
            column.append(ids[(emitted + i) % ids.count])
        }
        batch.setColumn(Column(name: "id", values: column))
        emitted += n
        return emitted < count ? .more : .finished
    }
}

func benchId(_ i: Int) -> String { "item-\(i)" }

func resolveBench(ids: Int, hits: Int) throws {
    let dir = NSTemporaryDirectory() + "daq-bench-resolve-\(getpid())"
    try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: dir) }
    var yaml = "elements:\n"
    for i in 0..<ids {
        yaml +=
            "  - {id: \(benchId(i)), input_type: barcode, content: {en: {name: Item \(i), description: Bench item}}}\n"
    }
    try yaml.write(toFile: dir + "/elements.yaml", atomically: true, encoding: .utf8)
    let server = try ReferenceServer(path: dir + "/elements.yaml")
    let port = Mutex(0)
    let ready = DispatchSemaphore(value: 0)
    let task = Task {
        try await server.run(host: "127.0.0.1", port: 0) { bound in
            port.withLock { $0 = bound }
            ready.signal()
        }
    }
    defer { task.cancel() }
    ready.wait()
    let url = "http://127.0.0.1:\(port.withLock { $0 })"
    print("resolve: reference server on \(url) serving \(server.elementCount) elements (in this process)")

    for inFlight in [1, 8, 32] {
        let (seconds, result) = try runResolve(
            ids: ids, count: ids, url: url, extra: "max_in_flight: \(inFlight), cache: {ttl: 0}")
        let resolved = result.stages.first { $0.name == "resolve" }?.samplesOut ?? 0
        print(
            "uncached, \(inFlight) in flight: \(resolved) resolutions in \(fixed(seconds, 2)) s: \(fixed(Double(resolved) / seconds, 0)) /s"
        )
    }
    let cache = dir + "/cache.jsonl"
    _ = try runResolve(
        ids: 1000, count: 1000, url: url, extra: "max_in_flight: 32, cache: {ttl: 1h, path: \"\(cache)\"}")
    let (hitSeconds, _) = try runResolve(
        ids: 1000, count: hits, url: url, extra: "cache: {ttl: 1h, path: \"\(cache)\"}")
    let (bareSeconds, _) = try runResolve(ids: 1000, count: hits, url: url, extra: nil)
    let perHit = (hitSeconds - bareSeconds) / Double(hits) * 1e9
    print(
        "cache hits: \(hits) samples in \(fixed(hitSeconds, 2)) s: \(fixed(Double(hits) / hitSeconds / 1e6, 2)) M/s through the pipeline; without the resolver \(fixed(bareSeconds, 2)) s"
    )
    print(
        "resolver cost per cache hit: \(fixed(perHit, 0)) ns (\(fixed(1e3 / max(perHit, 1), 2)) M hits/s on one core)")
}

/// One run of ids → resolve → null; `extra` nil runs ids → null.
private func runResolve(ids: Int, count: Int, url: String, extra: String?) throws -> (Double, RunResult) {
    let yaml =
        extra.map {
            """
            name: resolve-bench
            clock: virtual
            sources: {ids: {type: bench.ids, count: \(count), distinct: \(ids)}}
            transforms: {resolve: {type: infomanager.resolve, inputs: [ids], base_url: "\(url)", \($0)}}
            sinks: {out: {type: "null", inputs: [resolve]}}
            """
        } ?? """
            name: resolve-bench
            clock: virtual
            sources: {ids: {type: bench.ids, count: \(count), distinct: \(ids)}}
            sinks: {out: {type: "null", inputs: [ids]}}
            """
    let registry = try PluginRegistry(BuiltinPlugins.all + [.source(IdSource.self)])
    let spec = try PipelineLoader(registry: registry).load(text: yaml, file: "resolve-bench")
    let run = try PipelineRun(spec: spec)
    let started = DispatchTime.now().uptimeNanoseconds
    try run.start()
    let result = run.wait()
    if let failure = result.failure { throw BenchError(failure) }
    return (Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9, result)
}
