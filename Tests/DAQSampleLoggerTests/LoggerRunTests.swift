import DAQCore
import DAQSHA256
import DAQSampleLogger
import DAQTesting
import Foundation
import Synchronization
import Testing

/// Run directories, manifests, flushing and delivery reports.
@Suite("Logger runs", .timeLimit(.minutes(20)))
struct LoggerRunTests {
    @Test func runDirectoryHoldsAManifestDescribingEveryFile() throws {
        let base = tempDirectory()
        let yaml = """
            name: walk
            clock: virtual
            steps: [{path: one, at: 0}, {path: two, at: 0.5}]
            sources: {accel: {type: test.samples, count: 10, rate: 10, base: 1700000000}}
            sinks:
              json: {type: logger.json, inputs: [accel], directory: "\(base)"}
              jsonl: {type: logger.jsonl, inputs: [accel], directory: "\(base)"}
              csv: {type: logger.csv, inputs: [accel], directory: "\(base)", fsync: true}
            """
        let outcome = try PipelineHarness.run(
            yaml: yaml, plugins: testPlugins, options: RunOptions(flushInterval: 0, contentHash: .sha256))
        #expect(outcome.result.state == .finished)
        let dir = try runDirectory(under: base)
        #expect((dir as NSString).lastPathComponent.hasPrefix("walk-"))
        let manifest = try parseJSON(dir + "/manifest.json").object
        #expect(manifest["status"] == .string("finished"))
        let files = manifest["files"]?.array ?? []
        #expect(Set(files.compactMap { $0.object["path"]?.stringValue }) == ["accel.json", "accel.jsonl", "accel.csv"])
        for file in files.map(\.object) {
            let path = dir + "/" + (file["path"]?.stringValue ?? "")
            #expect(file["format"]?.stringValue == (path as NSString).pathExtension)
            #expect(file["samples"] == .int(13))  // 10 samples and 3 markers
            #expect(file["bytes"] == .int(Int64(try readBytes(path).count)))
            #expect(file["sha256"]?.stringValue == ContentHash.sha256.hex(ofFile: path))
        }
        // Everything sent was reported delivered, markers included.
        for sink in ["json", "jsonl", "csv"] {
            let sent = outcome.events.reduce(0) { if case .sent(sink, let n, _) = $1 { $0 + n } else { $0 } }
            let delivered = outcome.events.reduce(0) { if case .delivered(sink, let n, _) = $1 { $0 + n } else { $0 } }
            #expect(sent == 13 && delivered == 13, "\(sink)")
        }
    }

    @Test func flushMakesBytesVisibleBeforeFinish() throws {
        let base = tempDirectory()
        let events = Mutex<[PipelineEvent]>([])
        let context = StageContext.detached(
            name: "log", kind: .sink, clock: RunClock(mode: .virtual),
            onEvent: { e in events.withLock { $0.append(e) } })
        let config = try PluginConfigLoader.decode(JSONLoggerSink.Configuration.self, yaml: "directory: \(base)")
        let sink = try JSONLoggerSink(
            configuration: config,
            context: PluginContext(componentName: "log", pipelineName: "detached", baseDirectory: "", clock: .virtual))
        try sink.start(context: context)
        try sink.write(
            Batch(stream: "log", samples: [Sample(uptime: 0, stepPath: "a", kind: .marker)]), context: context)
        try sink.write(
            Batch(stream: "accel", samples: (0..<5).map { TestSamples.sample($0, base: 1_699_999_500) }),
            context: context)
        let path = try runDirectory(under: base) + "/accel.json"
        #expect(try readBytes(path).isEmpty, "buffered until a flush")

        try sink.flush(context: context)
        let visible = try LogRepair.repair(try readBytes(path))
        #expect(visible.itemsKept == 6 && visible.changed)
        func delivered() -> Int {
            events.withLock { $0.reduce(0) { if case .delivered(_, let n, _) = $1 { $0 + n } else { $0 } } }
        }
        #expect(delivered() == 6)

        try sink.write(
            Batch(stream: "accel", samples: (5..<8).map { TestSamples.sample($0, base: 1_699_999_500) }),
            context: context)
        try sink.write(
            Batch(stream: "log", samples: [Sample(uptime: 0.7, stepPath: "a", kind: .marker)]), context: context)
        try sink.flush(context: context)
        #expect(delivered() == 9, "the stop marker waits for finish")
        try sink.finish(context: context)
        #expect(delivered() == 10)
        let items = try parseJSON(path).object["items"]?.array ?? []
        #expect(items.count == 10)
        #expect(items.last?.object["timestampDate"] == .string(ISODate.string(1699999500.7)))
    }

    @Test func aSinkWithoutDataStillWritesItsMarkers() throws {
        let dir = try runLogger("logger.jsonl", extra: ", identifiers: {accel: a, other: b}", source: "count: 0")
        for name in ["a.jsonl", "b.jsonl"] {
            let lines = try readText(dir + "/" + name).split(separator: "\n")
            #expect(lines.count == 2, "start and stop markers in \(name)")
        }
    }
}
