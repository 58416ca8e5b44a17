import DAQCore
import DAQSampleLogger
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// Fields that appear mid-run reach every CSV output, in the same columns whatever the batch
/// size; JSON outputs write each sample's own fields. (The replay clock gives small batches:
/// before, a CSV's columns were fixed by its first batch and later fields were dropped.)
@Suite("Columns that grow", .timeLimit(.minutes(20)))
struct ColumnGrowthTests {
    /// Records whose fields appear one after another: `late` from the fourth (holding a comma,
    /// a quote and a newline, so the merge must respect quoting), `later` from the seventh, and
    /// `gone` in the second only, as a null it carries.
    static func input() throws -> String {
        var lines: [String] = []
        for i in 0..<10 {
            var record = #"{"t": \#(Double(i) / 10), "seq": \#(i)"#
            if i == 1 { record += #", "gone": null"# }
            if i >= 3 { record += #", "late": "a,\"\#(i)\"\nb""# }
            if i >= 6 { record += #", "later": \#(i * 2)"# }
            lines.append(record + "}")
        }
        let path = tempDirectory() + "/records.jsonl"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// Runs `records` through a sink (YAML of its map, `$OUT` standing for a fresh directory) at
    /// `batch` samples per batch; returns the directory and the run's warnings.
    static func run(sink: String, batch: Int, input: String) throws -> (String, [String]) {
        let out = tempDirectory()
        let yaml = """
            name: grow
            clock: virtual
            steps: [{path: one, at: 0}, {path: two, at: 0.45}]
            sources: {records: {type: file, path: "\(input)", time_field: t}}
            sinks:
              out: \(sink.replacingOccurrences(of: "$OUT", with: out))
            """
        let outcome = try PipelineHarness.run(
            yaml: yaml, plugins: StandardPlugins.all + SampleLoggerPlugins.all,
            options: RunOptions(batchSize: batch, flushInterval: 0))
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        let warnings = outcome.events.compactMap { event -> String? in
            if case .warning(_, let message) = event { return message }
            return nil
        }
        return (out, warnings)
    }

    static let loggerCSV = #"{type: logger.csv, inputs: [records], directory: "$OUT"}"#
    static let fileCSV = #"{type: file, inputs: [records], path: "$OUT/records.csv"}"#

    @Test(arguments: [1, 7, 4096])
    func loggerCSVHasEveryFieldAtAnyBatchSize(batch: Int) throws {
        let input = try Self.input()
        let (base, warnings) = try Self.run(sink: Self.loggerCSV, batch: batch, input: input)
        let dir = try runDirectory(under: base)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == ["manifest.json", "records.csv"])
        let text = try readText(dir + "/records.csv")
        #expect(text.hasPrefix("uptime,timestamp,stepPath,timestampDate,marker,t,seq,gone,late,later\n"))
        // Python's csv module reads every row at the header's width, quoted newlines included.
        let rows = try Self.pythonRows(dir + "/records.csv")
        // The same rows as one batch of everything (but the markers' dates, which are the run's):
        // columns do not depend on batch boundaries.
        let (oneBatch, _) = try Self.run(sink: Self.loggerCSV, batch: 4096, input: input)
        let reference = try Self.pythonRows(runDirectory(under: oneBatch) + "/records.csv")
        #expect(
            rows.map { $0.enumerated().filter { $0.offset != 3 }.map(\.element) }
                == reference.map { $0.enumerated().filter { $0.offset != 3 }.map(\.element) })
        #expect(rows.count == 14)  // the header, 10 samples, and the markers at start, 0.45 s and stop
        #expect(rows.allSatisfy { $0.count == 10 }, "\(rows)")
        let seven = try #require(rows.first { $0.count > 6 && $0[6] == "7" })
        #expect(seven[8] == "a,\"7\"\nb" && seven[9] == "14")
        let two = try #require(rows.first { $0.count > 6 && $0[6] == "2" })
        #expect(two[8] == "" && two[9] == "")
        #expect(
            rows.dropFirst().compactMap { $0.count > 4 && !$0[4].isEmpty ? $0[4] : nil } == ["start", "step", "stop"])
    }

    @Test(arguments: [1, 7, 4096])
    func fileSinkCSVHasEveryFieldAtAnyBatchSize(batch: Int) throws {
        let input = try Self.input()
        let (out, warnings) = try Self.run(sink: Self.fileCSV, batch: batch, input: input)
        #expect(warnings.isEmpty, "\(warnings)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out) == ["records.csv"])
        let rows = try Self.pythonRows(out + "/records.csv")
        #expect(rows.first == ["uptime", "timestamp", "stepPath", "kind", "t", "seq", "gone", "late", "later"])
        #expect(rows.allSatisfy { $0.count == 9 }, "\(rows)")
        #expect(rows.filter { $0[3] == "data" }.map { $0[8] } == ["", "", "", "", "", "", "12", "14", "16", "18"])
    }

    @Test func jsonOutputsWriteTheFieldsEachSampleHas() throws {
        let input = try Self.input()
        for sink in [
            #"{type: file, inputs: [records], path: "$OUT/records.jsonl"}"#,
            #"{type: logger.jsonl, inputs: [records], directory: "$OUT"}"#,
        ] {
            let (out, warnings) = try Self.run(sink: sink, batch: 4096, input: input)
            #expect(warnings.isEmpty, "\(warnings)")
            let path =
                sink.contains("logger") ? try runDirectory(under: out) + "/records.jsonl" : out + "/records.jsonl"
            let items = try readText(path).split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
            let data = items.filter { $0.object["seq"] != nil }
            #expect(data.count == 10)
            for item in data {
                guard case .int(let seq)? = item.object["seq"] else { continue }
                // A field the sample never had is absent, not null; one it has as null stays null.
                #expect((item.object["late"] != nil) == (seq >= 3), "\(item)")
                #expect((item.object["later"] != nil) == (seq >= 6), "\(item)")
                #expect(item.keys.contains("gone") == (seq == 1), "\(item)")
                #expect((item.object["gone"] == .null) == (seq == 1), "\(item)")
            }
        }
    }

    /// The rows of a CSV file as Python's `csv` module reads them.
    static func pythonRows(_ path: String) throws -> [[String]] {
        let script = "import csv, json, sys; print(json.dumps(list(csv.reader(open(sys.argv[1], newline='')))))"
        let r = try Process.runToEnd("python3", ["-c", script, path], timeout: 60)
        try #require(r.status == 0, "\(r.errors)")
        let parsed = try JSONParser.parse(Array(r.stdout))
        return parsed.array.map { $0.array.map { $0.stringValue ?? "" } }
    }
}
