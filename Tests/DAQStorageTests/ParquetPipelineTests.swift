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
