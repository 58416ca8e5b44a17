import DAQCore
import DAQStorage
import DAQTesting
import Foundation
import Testing

/// `daq inspect` of Parquet: what the footers say, checked against what was written and
/// against pyarrow's reading of the same footers.
@Suite("Parquet inspection", .timeLimit(.minutes(10)))
struct ParquetInspectionTests {
    @Test func aFileIsSummarizedFromItsFooter() throws {
        let batches = ParquetRoundTripTests.batches()
        let dir = try ParquetSinkRun(config: "compression: gzip\nrow_group_rows: 300").run(batches)
        let path = dir + "/acc.parquet"
        let summary = try ParquetFileSummary(path: path)
        #expect(summary.rows == 1_003 && summary.rowGroups == 4)
        #expect(summary.codecs == ["GZIP"])
        #expect(summary.stream == "acc")
        #expect(summary.columns.first { $0.name == "x" }?.unit == "g")
        #expect(summary.columns.first { $0.name == "timestamp" }?.type == "INT64 TIMESTAMP(UTC, µs)")
        let range = try #require(summary.timeRange)
        #expect(
            abs(range.lowerBound - 1_700_000_000.123456) < 1e-6 && abs(range.upperBound - 1_700_000_010.123456) < 1e-6)
        // Null counts agree with pyarrow's statistics.
        let script = """
            import sys, json, pyarrow.parquet as pq
            md = pq.ParquetFile(sys.argv[1]).metadata
            out = {}
            for g in range(md.num_row_groups):
                for c in range(md.num_columns):
                    col = md.row_group(g).column(c)
                    out[col.path_in_schema] = out.get(col.path_in_schema, 0) + col.statistics.null_count
            print(json.dumps(out))
            """
        let r = try Process.runToEnd("python3", ["-c", script, path], timeout: 300)
        try #require(r.status == 0, "\(r.errors.suffix(2000))")
        guard case .object(let nulls) = try JSONParser.parse(Array(r.stdout)) else {
            Issue.record("pyarrow printed no object")
            return
        }
        for column in summary.columns {
            #expect(nulls[column.name]?.intValue == column.nullCount, "\(column.name)")
        }
        let text = try ParquetInspection.report(path)
        #expect(text.contains("rows: 1003 in 4 row groups"))
        #expect(text.contains("codec: GZIP"))
    }

    @Test func aFolderOfPartsIsOneTable() throws {
        let (batches, _) = ParquetRoundTripTests.widening()
        let dir = try ParquetSinkRun(config: "roll: {rows: 100}").run(batches)
        #expect(ParquetInspection.isParquet(dir + "/s"))
        #expect(!ParquetInspection.isParquet(dir + "/manifest.json"))
        // A FIFO is not opened to sniff it (that would wait for a writer): it is not Parquet.
        let fifo = dir + "/pipe.parquet"
        try #require(mkfifo(fifo, 0o600) == 0)
        #expect(!ParquetInspection.isParquet(fifo))
        let text = try ParquetInspection.report(dir + "/s")
        #expect(text.contains("parts: 4"))
        #expect(text.contains("rows: 300 in 4 row groups"))
        let b = text.split(separator: "\n").first { $0.hasPrefix("  b ") }.map(String.init)
        #expect(b?.hasSuffix(" BYTE_ARRAY STRING  [code]  nulls: 0") == true, "\(b ?? text)")
        #expect(text.contains("codec: ZSTD"))
    }

    @Test func aPartWithoutItsFooterIsNamedNotFatal() throws {
        let (batches, _) = ParquetRoundTripTests.widening()
        let dir = try ParquetSinkRun(config: "roll: {rows: 100}").run(batches)
        // What a killed run leaves: the open part has its magic and row groups but no footer.
        let whole = try Data(contentsOf: URL(fileURLWithPath: dir + "/s/part-00004.parquet"))
        try whole.prefix(whole.count / 2).write(to: URL(fileURLWithPath: dir + "/s/part-00005.parquet"))
        let text = try ParquetInspection.report(dir + "/s")
        #expect(text.contains("parts: 4 (+1 unreadable)"))
        #expect(text.contains("unreadable: \(dir)/s/part-00005.parquet: no Parquet footer"))
        #expect(throws: (any Error).self) { try ParquetInspection.report(dir + "/s/part-00005.parquet") }
    }

    /// Statistics a reader can skip by: pyarrow's min and max of every row group equal the data's.
    @Test func rowGroupStatisticsBoundTheirRows() throws {
        let dir = try ParquetSinkRun(config: "row_group_rows: 256").run(ParquetRollTests.batches(1_000, rate: 100))
        let script = """
            import sys, json, pyarrow.parquet as pq
            f = pq.ParquetFile(sys.argv[1])
            md = f.metadata
            out = []
            for g in range(md.num_row_groups):
                t = f.read_row_group(g)
                for c in range(md.num_columns):
                    s = md.row_group(g).column(c).statistics
                    name = md.row_group(g).column(c).path_in_schema
                    if name in ('timestamp', 'marker'): continue
                    vals = [v for v in t[name].to_pylist() if v is not None]
                    out.append([name, s.has_min_max, s.min == min(vals), s.max == max(vals), s.null_count])
            print(json.dumps(out))
            """
        let r = try Process.runToEnd("python3", ["-c", script, dir + "/s.parquet"], timeout: 300)
        try #require(r.status == 0, "\(r.errors.suffix(2000))")
        let checks = try JSONParser.parse(Array(r.stdout))
        guard case .array(let rows) = checks else {
            Issue.record("pyarrow printed no list")
            return
        }
        #expect(rows.count == 4 * 5)
        for case .array(let row) in rows {
            #expect(row[1] == .bool(true) && row[2] == .bool(true) && row[3] == .bool(true), "\(row)")
        }
        // DuckDB skips by them: a filter on v reads back exactly the rows it selects.
        let duck = try Process.runToEnd(
            "python3",
            [
                "-c",
                "import sys, duckdb; print(duckdb.sql(\"select count(*) from read_parquet('%s') where v >= 400\" % sys.argv[1]).fetchall()[0][0])",
                dir + "/s.parquet",
            ], timeout: 300)
        try #require(duck.status == 0, "\(duck.errors.suffix(2000))")
        #expect(duck.output.trimmingCharacters(in: .whitespacesAndNewlines) == "200")
    }
}
