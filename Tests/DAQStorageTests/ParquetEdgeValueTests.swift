import DAQCore
import DAQStorage
import DAQTesting
import Foundation
import Testing

/// Values at the edges: non-finite and signed-zero doubles, extreme integers, empty and
/// non-ASCII text, all-null columns.
@Suite("Parquet edge values", .timeLimit(.minutes(10)))
struct ParquetEdgeValueTests {
    static let doubles: [Double] = [.nan, .infinity, -.infinity, -0.0, 0.0, 1e-310, -1.5e300]
    static let ints: [Int64] = [.min, .max, 0, -1, 1]
    static let texts = ["", "😀 émoji", "a\u{0}b", "line\nbreak", "z"]

    static func batches() -> [Batch] {
        let descriptor = StreamDescriptor(fields: [
            FieldDescriptor("d", .double), FieldDescriptor("i", .int), FieldDescriptor("s", .string),
            FieldDescriptor("never", .double),
        ])
        let samples = (0..<35).map { k in
            Sample(
                timestamp: 1_700_000_000 + Double(k), uptime: Double(k),
                fields: [
                    "d": .double(doubles[k % doubles.count]), "i": .int(ints[k % ints.count]),
                    "s": .string(texts[k % texts.count]), "never": .null,
                ])
        }
        return [batch("e", samples, descriptor: descriptor)]
    }

    @Test(arguments: [ParquetOracle.pyarrow, .duckdb])
    func edgeValuesReadBackExactly(oracle: ParquetOracle) throws {
        let dir = try ParquetSinkRun(config: "").run(Self.batches())
        let path = dir + "/e.parquet"
        let script = """
            import sys, json, math, pyarrow.parquet as pq, duckdb
            t = pq.read_table(sys.argv[1]) if sys.argv[2] == 'pyarrow' else duckdb.sql("select * from '%s'" % sys.argv[1]).to_arrow_table()
            d = [repr(v) for v in t['d'].to_pylist()]
            print(json.dumps({'d': d, 'i': [str(v) for v in t['i'].to_pylist()], 's': t['s'].to_pylist(),
                'never': t['never'].null_count}))
            """
        let r = try Process.runToEnd("python3", ["-c", script, path, oracle.rawValue], timeout: 300)
        try #require(r.status == 0, "\(r.errors.suffix(2000))")
        guard case .object(let got) = try JSONParser.parse(Array(r.stdout)) else {
            Issue.record("\(oracle) printed no object")
            return
        }
        // Python's repr of each double: nan, inf, -inf, -0.0, 0.0, 1e-310, -1.5e+300.
        let reprs = ["nan", "inf", "-inf", "-0.0", "0.0", "1e-310", "-1.5e+300"]
        #expect(got["d"] == .array((0..<35).map { .string(reprs[$0 % reprs.count]) }))
        #expect(got["i"] == .array((0..<35).map { .string(String(Self.ints[$0 % Self.ints.count])) }))
        #expect(got["s"] == .array((0..<35).map { .string(Self.texts[$0 % Self.texts.count]) }))
        #expect(got["never"] == .int(35))
    }

    /// NaN is left out of the bounds and a zero bound covers both zeros, as the format asks.
    @Test func statisticsIgnoreNaNAndWidenZeros() throws {
        let zeros = StreamDescriptor(fields: [FieldDescriptor("d", .double)])
        let samples = [Double.nan, 0.0, 3.5].enumerated().map { k, v in
            Sample(timestamp: 1_700_000_000 + Double(k), uptime: Double(k), fields: ["d": .double(v)])
        }
        let dir = try ParquetSinkRun(config: "").run([batch("z", samples, descriptor: zeros)])
        let script = """
            import sys, pyarrow.parquet as pq
            md = pq.ParquetFile(sys.argv[1]).metadata.row_group(0)
            s = [md.column(c) for c in range(md.num_columns) if md.column(c).path_in_schema == 'd'][0].statistics
            print(repr(s.min), repr(s.max), s.null_count)
            """
        let r = try Process.runToEnd("python3", ["-c", script, dir + "/z.parquet"], timeout: 300)
        try #require(r.status == 0, "\(r.errors.suffix(2000))")
        #expect(r.output.trimmingCharacters(in: .whitespacesAndNewlines) == "-0.0 3.5 0")
    }
}
