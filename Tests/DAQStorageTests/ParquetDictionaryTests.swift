import DAQCore
import DAQStorage
import DAQTesting
import Foundation
import Testing

/// Text columns: a dictionary while it pays, PLAIN once a row group's dictionary grows large.
@Suite("Parquet text encodings", .timeLimit(.minutes(10)))
struct ParquetDictionaryTests {
    /// `count` rows whose `id` is distinct per row and whose `state` takes three values.
    static func batches(_ count: Int) -> [Batch] {
        let descriptor = StreamDescriptor(fields: [FieldDescriptor("id", .string), FieldDescriptor("state", .string)])
        return stride(from: 0, to: count, by: 4_096).map { start in
            batch(
                "t",
                (start..<min(count, start + 4_096)).map { i in
                    Sample(
                        timestamp: 1_700_000_000 + Double(i) / 100, uptime: Double(i) / 100,
                        fields: [
                            "id": .string("id-\(i)-\(String(repeating: "x", count: i % 5))"),
                            "state": .string(["a", "b", "c"][i % 3]),
                        ])
                }, descriptor: descriptor)
        }
    }

    @Test(arguments: [ParquetOracle.pyarrow, .duckdb])
    func distinctTextFallsBackToPlainAndReadsBack(oracle: ParquetOracle) throws {
        // 70,000 distinct ids in one row group: past the 65,536-entry dictionary limit.
        let batches = Self.batches(70_000)
        let dir = try ParquetSinkRun(config: "row_group_rows: 100000\ncompression: none").run(batches)
        let path = dir + "/t.parquet"
        let script = """
            import sys, json, pyarrow.parquet as pq
            md = pq.ParquetFile(sys.argv[1]).metadata.row_group(0)
            print(json.dumps({md.column(c).path_in_schema: list(md.column(c).encodings) for c in range(md.num_columns)}))
            """
        let r = try Process.runToEnd("python3", ["-c", script, path], timeout: 300)
        try #require(r.status == 0, "\(r.errors.suffix(2000))")
        let encodings = try JSONParser.parse(Array(r.stdout))
        guard case .object(let byColumn) = encodings else {
            Issue.record("pyarrow printed no object")
            return
        }
        let id = "\(byColumn["id"] ?? .null)"
        let state = "\(byColumn["state"] ?? .null)"
        #expect(id.contains("PLAIN") && !id.contains("RLE_DICTIONARY"), "\(id)")
        #expect(state.contains("RLE_DICTIONARY"), "\(state)")
        expectRows(try oracle.read(path), expectedRows(batches, fields: batches[0].descriptor!.fields), by: oracle)
    }

    /// Numbers: a quantized column (1/256 steps, few values) and a count in a narrow range get a
    /// dictionary; a continuous column and a distinct counter stay PLAIN. All read back exactly.
    @Test(arguments: [ParquetOracle.pyarrow, .duckdb])
    func quantizedNumbersGetADictionary(oracle: ParquetOracle) throws {
        let descriptor = StreamDescriptor(fields: [
            FieldDescriptor("q", .double), FieldDescriptor("smooth", .double), FieldDescriptor("level", .int),
            FieldDescriptor("seq", .int),
        ])
        let samples = (0..<5_000).map { (i: Int) -> Sample in
            let wave: Double = sin(Double(i) / 30)
            let quantized: Double = (wave * 512).rounded() / 256
            let fields: Fields = [
                "q": .double(quantized), "smooth": .double(wave), "level": .int(Int64(i % 17) - 8),
                "seq": .int(Int64(i)),
            ]
            return Sample(timestamp: 1_700_000_000 + Double(i) / 100, uptime: Double(i) / 100, fields: fields)
        }
        let batches = [batch("n", samples, descriptor: descriptor)]
        let dir = try ParquetSinkRun(config: "").run(batches)
        let path = dir + "/n.parquet"
        let script = """
            import sys, json, pyarrow.parquet as pq
            md = pq.ParquetFile(sys.argv[1]).metadata.row_group(0)
            print(json.dumps({md.column(c).path_in_schema: list(md.column(c).encodings) for c in range(md.num_columns)}))
            """
        let r = try Process.runToEnd("python3", ["-c", script, path], timeout: 300)
        try #require(r.status == 0, "\(r.errors.suffix(2000))")
        guard case .object(let byColumn) = try JSONParser.parse(Array(r.stdout)) else {
            Issue.record("pyarrow printed no object")
            return
        }
        func encodings(_ name: String) -> String { "\(byColumn[name] ?? Value.null)" }
        for name in ["q", "level"] {
            #expect(encodings(name).contains("RLE_DICTIONARY"), "\(name): \(encodings(name))")
        }
        for name in ["smooth", "seq", "uptime", "timestamp"] {
            #expect(!encodings(name).contains("RLE_DICTIONARY"), "\(name): \(encodings(name))")
        }
        expectRows(try oracle.read(path), expectedRows(batches, fields: descriptor.fields), by: oracle)
    }
}
