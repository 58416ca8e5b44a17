import DAQCore
import DAQSampleLogger
import DAQStandard
import DAQStorage
import DAQTesting
import Foundation
import Testing

/// The sink in a pipeline run by the engine, against the CSV logger of the same run.
@Suite("Parquet in a pipeline", .timeLimit(.minutes(10)))
struct ParquetPipelineTests {
    @Test(arguments: ["", "roll: {rows: 200}"])
    func rowsEqualTheCSVLoggersRows(roll: String) throws {
        let base = tempDirectory()
        let yaml = """
            name: pq
            clock: virtual
            steps: [{path: rest, at: 0}, {path: walk, at: 2.5}, {path: rest, at: 4}]
            sources: {gen: {type: generator, signal: noise, rate: 100, count: 700}}
            sinks:
              csv: {type: logger.csv, inputs: [gen], directory: "\(base)"}
              pq: {type: parquet, inputs: [gen], directory: "\(base)", row_group_rows: 128\(roll.isEmpty ? "" : ", " + roll)}
            """
        let outcome = try PipelineHarness.run(
            yaml: yaml, plugins: StandardPlugins.all + SampleLoggerPlugins.all + StoragePlugins.all,
            options: RunOptions(flushInterval: 0))
        #expect(outcome.result.state == .finished)
        let dir = try runDirectory(under: base)
        let csv = try csvRows(dir + "/gen.csv")
        let parquet = try ParquetOracle.pyarrow.read(dir + (roll.isEmpty ? "/gen.parquet" : "/gen")).rows
        try #require(parquet.count == csv.count, "parquet \(parquet.count) rows, csv \(csv.count)")
        // The CSV's times count from t0, the first data row's timestamp minus its uptime.
        let first = try #require(parquet.first { $0["kind"] == "data" })
        let t0 = Double(first["timestamp"]?.intValue ?? 0) / 1e6 - (first["uptime"]?.doubleValue ?? 0)
        var differ = 0
        for (p, c) in zip(parquet, csv) {
            var ok =
                p["uptime"]?.doubleValue == Double(c["uptime"] ?? "") && p["stepPath"]?.stringValue == c["stepPath"]
                && (p["marker"]?.stringValue ?? "") == c["marker"]
            if p["kind"] == "marker" {
                ok = ok && c["marker"] != ""
            } else {
                ok =
                    ok && p["value"]?.doubleValue == Double(c["value"] ?? "")
                    && p["seq"]?.intValue == Int64(c["seq"] ?? "")
                    && abs(Double(p["timestamp"]?.intValue ?? 0) / 1e6 - t0 - (Double(c["timestamp"] ?? "") ?? .nan))
                        < 2e-6
            }
            if !ok {
                differ += 1
                if differ < 5 { Issue.record("parquet \(p) ≠ csv \(c)") }
            }
        }
        #expect(differ == 0)
        #expect(parquet.filter { $0["kind"] == "data" }.count == 700)
        // Everything sent was reported delivered, markers included.
        let sent = outcome.events.reduce(0) { if case .sent("pq", let n, _) = $1 { $0 + n } else { $0 } }
        let delivered = outcome.events.reduce(0) { if case .delivered("pq", let n, _) = $1 { $0 + n } else { $0 } }
        #expect(sent == delivered && sent == csv.count)
        // The manifest lists every file written.
        let manifest = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: dir + "/manifest.json"))))
        guard case .object(let m) = manifest, case .array(let files)? = m["files"] else {
            Issue.record("no files in the manifest")
            return
        }
        let parquetFiles = files.filter { if case .object(let f) = $0 { f["format"] == "parquet" } else { false } }
        #expect(parquetFiles.count == (roll.isEmpty ? 1 : 4))
    }

    /// The CSV logger's rows as header → cell (no cell of this test needs quoting).
    func csvRows(_ path: String) throws -> [[String: String]] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n")
        let header = lines[0].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        return lines.dropFirst().map { line in
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return Dictionary(uniqueKeysWithValues: zip(header, cells))
        }
    }
}

/// A field that first appears mid-run, through the engine: the descriptor change reaches the
/// sink with the data, and the rows still equal the CSV logger's.
@Suite("Parquet descriptor changes in a pipeline", .timeLimit(.minutes(10)))
struct ParquetDescriptorChangeTests {
    @Test(arguments: ["", ", roll: {rows: 1000}"])
    func aLateFieldWidensTheTable(roll: String) throws {
        let base = tempDirectory()
        let yaml = """
            name: late
            clock: virtual
            sources: {rec: {type: test.late}}
            sinks:
              csv: {type: logger.csv, inputs: [rec], directory: "\(base)/out"}
              pq: {type: parquet, inputs: [rec], directory: "\(base)/out", row_group_rows: 64\(roll)}
            """
        let outcome = try PipelineHarness.run(
            yaml: yaml, plugins: SampleLoggerPlugins.all + StoragePlugins.all + [.source(LateFieldSource.self)],
            options: RunOptions(flushInterval: 0))
        #expect(outcome.result.state == .finished)
        let dir = try runDirectory(under: base + "/out")
        let csv = try ParquetPipelineTests().csvRows(dir + "/rec.csv")
        let table = try ParquetOracle.duckdb.read(dir + (roll.isEmpty ? "/rec.parquet" : "/rec"))
        #expect(table.columns.map(\.name).suffix(2) == ["a", "b"])
        let data = table.rows.filter { $0["kind"] == "data" }
        let csvData = csv.filter { $0["marker"] == "" }
        try #require(data.count == 300 && csvData.count == 300)
        for (p, c) in zip(data, csvData) {
            #expect(p["a"]?.intValue == Int64(c["a"] ?? ""), "\(p) ≠ \(c)")
            #expect((p["b"]?.stringValue ?? "") == (c["b"] ?? ""), "\(p) ≠ \(c)")
            #expect(p["uptime"]?.doubleValue == Double(c["uptime"] ?? ""), "\(p) ≠ \(c)")
        }
        if !roll.isEmpty {
            let parts = try FileManager.default.contentsOfDirectory(atPath: dir + "/rec").sorted()
            #expect(parts == ["part-00001.parquet", "part-00002.parquet"], "a new part at the new field")
        }
    }
}

/// 300 samples of `a`, with `b` from the 201st on, 50 per read, declaring nothing: the engine
/// learns `b` when it first comes.
final class LateFieldSource: SourcePlugin {
    struct Configuration: PluginConfiguration {}

    static let typeName = "test.late"
    static let summary = "A field that appears mid-run."

    private var next = 0

    init(configuration: Configuration, context: PluginContext) throws {}

    func read(into batch: inout Batch, limit: Int, context: StageContext) throws -> SourceStatus {
        for _ in 0..<min(50, limit) where next < 300 {
            var fields: Fields = ["a": .int(Int64(next))]
            if next >= 200 { fields["b"] = .string("v\(next % 3)") }
            batch.append(
                Sample(timestamp: 1_700_000_000 + Double(next) / 10, uptime: Double(next) / 10, fields: fields))
            next += 1
        }
        return next >= 300 ? .finished : .more
    }
}

/// Two streams into one sink: a file each, and every marker in both, as the CSV logger does.
@Suite("Parquet with several inputs", .timeLimit(.minutes(10)))
struct ParquetSeveralInputsTests {
    @Test func everyStreamGetsItsFileAndEveryMarker() throws {
        let base = tempDirectory()
        let yaml = """
            name: two
            clock: virtual
            steps: [{path: a, at: 0}, {path: b, at: 1.5}]
            sources:
              fast: {type: generator, rate: 100, count: 300}
              slow: {type: generator, rate: 10, count: 30, field: level}
            sinks:
              csv: {type: logger.csv, inputs: [fast, slow], directory: "\(base)"}
              pq: {type: parquet, inputs: [fast, slow], directory: "\(base)"}
            """
        let outcome = try PipelineHarness.run(
            yaml: yaml, plugins: StandardPlugins.all + SampleLoggerPlugins.all + StoragePlugins.all,
            options: RunOptions(flushInterval: 0))
        #expect(outcome.result.state == .finished)
        let dir = try runDirectory(under: base)
        for stream in ["fast", "slow"] {
            let csv = try ParquetPipelineTests().csvRows(dir + "/\(stream).csv")
            let rows = try ParquetOracle.pyarrow.read(dir + "/\(stream).parquet").rows
            #expect(rows.count == csv.count, "\(stream)")
            let marks = rows.compactMap { $0["kind"] == "marker" ? $0["marker"]?.stringValue : nil }
            #expect(marks == csv.compactMap { $0["marker"]?.isEmpty == false ? $0["marker"] : nil }, "\(stream)")
            #expect(marks.count >= 3, "\(stream): start, the step to b, stop")
            let steps = rows.compactMap { $0["stepPath"]?.stringValue }
            #expect(steps == csv.compactMap { $0["stepPath"] }, "\(stream)")
        }
        let sent = outcome.events.reduce(0) { if case .sent("pq", let n, _) = $1 { $0 + n } else { $0 } }
        let delivered = outcome.events.reduce(0) { if case .delivered("pq", let n, _) = $1 { $0 + n } else { $0 } }
        #expect(sent == delivered, "markers are delivered once, however many files hold them")
    }
}
