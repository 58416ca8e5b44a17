import DAQCore
import DAQStorage
import DAQTesting
import Foundation
import Synchronization
import Testing

/// Runs a `parquet` sink by hand: batches in, then finish; returns the run directory.
struct ParquetSinkRun {
    /// The events the sink reported, from whichever queue reported them.
    final class EventLog: Sendable {
        let events = Mutex<[PipelineEvent]>([])
    }

    let base: String
    let log = EventLog()
    let context: StageContext
    let sink: ParquetSink

    init(config: String) throws {
        base = tempDirectory()
        let log = self.log
        context = StageContext.detached(
            name: "pq", kind: .sink, clock: RunClock(mode: .virtual),
            onEvent: { e in log.events.withLock { $0.append(e) } })
        let decoded = try PluginConfigLoader.decode(
            ParquetSink.Configuration.self, yaml: "directory: \(base)\n" + config)
        sink = try ParquetSink(
            configuration: decoded,
            context: PluginContext(componentName: "pq", pipelineName: "detached", baseDirectory: "", clock: .virtual))
        try sink.start(context: context)
    }

    /// Writes `batches`, flushes, finishes; returns the run directory.
    func run(_ batches: [Batch]) throws -> String {
        for b in batches { try sink.write(b, context: context) }
        try sink.flush(context: context)
        try sink.finish(context: context)
        return try runDirectory(under: base)
    }

    /// Samples reported delivered.
    var delivered: Int {
        log.events.withLock { $0.reduce(0) { if case .delivered(_, let n, _) = $1 { $0 + n } else { $0 } } }
    }
}

/// A batch of `samples` on `stream` carrying `descriptor`, as the engine stamps it.
func batch(_ stream: String, _ samples: [Sample], descriptor: StreamDescriptor?) -> Batch {
    var b = Batch(stream: stream, samples: samples)
    b.descriptor = descriptor
    return b
}

/// The rows the sink should write for `batches`, by the loggers' rule: every marker before the
/// first data or event row at or after its uptime (a resume only after), the rest at the end.
/// Fields as a reader returns them: absent is null, bytes are hex, `any` values are text.
func expectedRows(_ batches: [Batch], fields: [FieldDescriptor]) -> [Fields] {
    var markers: [Sample] = []
    var next = 0
    var rows: [Fields] = []
    func markerRow(_ m: Sample) -> Fields {
        var f: Fields = [
            "timestamp": .int(micros(m.timestamp)), "uptime": .double(m.uptime), "stepPath": .string(m.stepPath),
            "kind": "marker", "marker": m.fields["marker"] ?? "step",
        ]
        for d in fields { f[d.name] = .null }
        return f
    }
    func precedes(_ m: Sample, _ uptime: Double) -> Bool {
        m.fields["marker"]?.stringValue == "resume" ? uptime > m.uptime : uptime >= m.uptime
    }
    for b in batches {
        for s in b.samples {
            if s.kind == .marker {
                markers.append(s)
                continue
            }
            while next < markers.count && precedes(markers[next], s.uptime) {
                rows.append(markerRow(markers[next]))
                next += 1
            }
            var f: Fields = [
                "timestamp": .int(micros(s.timestamp)), "uptime": .double(s.uptime), "stepPath": .string(s.stepPath),
                "kind": .string(s.kind == .event ? "event" : "data"), "marker": s.fields["marker"] ?? .null,
            ]
            for d in fields { f[d.name] = readerValue(s.fields[d.name] ?? .null, type: d.type) }
            rows.append(f)
        }
    }
    while next < markers.count {
        rows.append(markerRow(markers[next]))
        next += 1
    }
    return rows
}

/// `value` of a field of `type` as a reader returns it.
func readerValue(_ value: Value, type: FieldType) -> Value {
    switch (type, value) {
    case (_, .null): return .null
    case (.double, .int(let i)): return .double(Double(i))
    case (.bytes, .bytes(let b)): return .string(b.map { String(format: "%02x", $0) }.joined())
    case (.any, .string), (.string, .string): return value
    case (.any, _), (.array, _), (.object, _):
        var bytes: [UInt8] = []
        JSONEncoding.append(value, to: &bytes)
        return .string(String(decoding: bytes, as: UTF8.self))
    default: return value
    }
}

func micros(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) }

/// Whether two values read back are the same: numbers by value (a reader may print 3.0 as 3).
func same(_ a: Value?, _ b: Value?) -> Bool {
    if let x = a?.doubleValue, let y = b?.doubleValue, a?.stringValue == nil { return x == y }
    return (a ?? .null) == (b ?? .null)
}

/// Expects `table` to hold `expected`, row by row and column by column.
func expectRows(
    _ table: OracleTable, _ expected: [Fields], by oracle: ParquetOracle,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(table.rows.count == expected.count, "\(oracle): row count", sourceLocation: sourceLocation)
    var reported = 0
    for (i, (got, want)) in zip(table.rows, expected).enumerated() {
        for (key, value) in want.pairs where !same(got[key], value) {
            reported += 1
            if reported <= 10 {
                Issue.record(
                    "\(oracle): row \(i) column \(key): read \(got[key] ?? .null), wrote \(value)",
                    sourceLocation: sourceLocation)
            }
        }
    }
}

/// A fresh temporary directory.
func tempDirectory() -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-parquet-\(UUID().uuidString)").path
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

/// The single run directory a run created under `base`.
func runDirectory(under base: String) throws -> String {
    let entries = try FileManager.default.contentsOfDirectory(atPath: base)
    try #require(entries.count == 1, "expected one run directory, found \(entries)")
    return (base as NSString).appendingPathComponent(entries[0])
}
