import DAQCore
import DAQSampleLogger
import DAQTesting
import Foundation
import Testing

/// A source for logger tests: `count` samples at `rate` Hz stamped `base + uptime`, with an int
/// `seq`, a double `value` (seq + 1/3, so decimals show), and a `label` that needs CSV quoting.
/// `event_at` makes that sample an event; `nulls` leaves `label` null on odd samples.
final class TestSamples: SourcePlugin {
    struct Configuration: PluginConfiguration {
        @Setting("Samples to emit.") var count = 10
        @Setting("Samples per second.") var rate = 10.0
        @Setting("Timestamp of uptime 0; the run's start when unset.") var base: Double?
        @Setting("The sample that is an event.") var eventAt: Int?
        @Setting("Leave label null on odd samples.") var nulls = false
    }

    static let typeName = "test.samples"
    static let summary = "Test samples."

    private let config: Configuration
    private var next = 0

    init(configuration: Configuration, context: PluginContext) throws { config = configuration }

    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        let base = config.base ?? context.startDate
        while next < config.count && batch.count < limit {
            let null = config.nulls && next % 2 == 1
            batch.append(
                TestSamples.sample(next, rate: config.rate, base: base, event: next == config.eventAt, null: null))
            next += 1
        }
        return next >= config.count ? .finished : .more
    }

    static func sample(_ i: Int, rate: Double = 10, base: Double, event: Bool = false, null: Bool = false) -> Sample {
        let uptime = Double(i) / rate
        let label: Value = null ? .null : .string("a,\"\(i)\"")
        let fields: Fields = ["seq": .int(Int64(i)), "value": .double(Double(i) + 1.0 / 3), "label": label]
        return Sample(timestamp: base + uptime, uptime: uptime, kind: event ? .event : .data, fields: fields)
    }
}

let testPlugins = SampleLoggerPlugins.all + [.source(TestSamples.self)]

/// A fresh temporary directory.
func tempDirectory() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-logger-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The single run directory a run created under `base`.
func runDirectory(under base: String) throws -> String {
    let entries = try FileManager.default.contentsOfDirectory(atPath: base)
    try #require(entries.count == 1, "expected one run directory, found \(entries)")
    return (base as NSString).appendingPathComponent(entries[0])
}

func readBytes(_ path: String) throws -> [UInt8] {
    [UInt8](try #require(FileManager.default.contents(atPath: path), "cannot read \(path)"))
}

func readText(_ path: String) throws -> String {
    String(decoding: try readBytes(path), as: UTF8.self)
}

func parseJSON(_ path: String) throws -> Value {
    try JSONParser.parse(try readBytes(path))
}

extension Value {
    /// The fields of an object, or none.
    var object: Fields { if case .object(let f) = self { return f } else { return [:] } }
    /// The elements of an array, or none.
    var array: [Value] { if case .array(let a) = self { return a } else { return [] } }
    /// An object's keys in order.
    var keys: [String] { object.keys }
}

/// Runs a one-source pipeline with step changes at 0 and 0.5 s into one logger sink, and
/// returns the run directory.
func runLogger(_ sinkType: String, extra: String = "", source: String = "count: 10, rate: 10, base: 1700000000") throws
    -> String
{
    let base = tempDirectory()
    let yaml = """
        name: walk
        clock: virtual
        steps: [{path: one, at: 0}, {path: two, at: 0.5}]
        sources: {accel: {type: test.samples, \(source)}}
        sinks:
          log: {type: \(sinkType), inputs: [accel], directory: "\(base)"\(extra)}
        """
    let outcome = try PipelineHarness.run(yaml: yaml, plugins: testPlugins)
    #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
    return try runDirectory(under: base)
}
