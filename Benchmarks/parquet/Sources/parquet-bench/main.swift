import DAQCore
import DAQStorage
import Foundation

// parquet-bench ROWS DIR CODEC: writes ROWS samples at 100 Hz (x, y, z doubles, seq, a label
// of two values, one step) through the parquet sink and prints rows/s and the file's size.
// The batches are built first, as a source hands them over: only the sink is timed.
let arguments = CommandLine.arguments
guard arguments.count == 4, let rows = Int(arguments[1]), let codec = ParquetCompression(rawValue: arguments[3])
else {
    FileHandle.standardError.write(Data("usage: parquet-bench ROWS DIR zstd|gzip|none\n".utf8))
    exit(2)
}
let descriptor = StreamDescriptor(fields: [
    FieldDescriptor("x", .double, unit: "g"), FieldDescriptor("y", .double, unit: "g"),
    FieldDescriptor("z", .double, unit: "g"), FieldDescriptor("seq", .int), FieldDescriptor("label", .string),
])
var batches: [Batch] = []
for start in stride(from: 0, to: rows, by: 4_096) {
    let range = start..<min(rows, start + 4_096)
    var b = Batch(stream: "acc", capacity: range.count)
    let uptimes = range.map { Double($0) / 100 }
    b.appendRows(
        uptimes: uptimes, timestamps: uptimes.map { 1_700_000_000 + $0 },
        stepPaths: Array(repeating: "walk", count: range.count))
    b.setColumn(Column(name: "x", doubles: range.map { sin(Double($0) / 50) }))
    b.setColumn(Column(name: "y", doubles: range.map { cos(Double($0) / 70) * 0.5 }))
    b.setColumn(Column(name: "z", doubles: range.map { 1 + Double($0 % 13) / 1000 }))
    b.setColumn(Column(name: "seq", ints: range.map { Int64($0) }))
    b.setColumn(Column(name: "label", strings: range.map { $0 % 1000 < 500 ? "sitting" : "walking" }))
    b.descriptor = descriptor
    batches.append(b)
}
var config = ParquetSink.Configuration()
config.directory = arguments[2]
config.compression = codec
let context = StageContext.detached(name: "pq", kind: .sink, clock: RunClock(mode: .virtual))
let sink = try ParquetSink(
    configuration: config,
    context: PluginContext(componentName: "pq", pipelineName: "bench", baseDirectory: "", clock: .virtual))
try sink.start(context: context)
let started = Date()
for b in batches { try sink.write(b, context: context) }
try sink.finish(context: context)
let seconds = Date().timeIntervalSince(started)
print("parquet-bench \(codec.rawValue): \(rows) rows in \(seconds) s = \(Int(Double(rows) / seconds)) rows/s")
