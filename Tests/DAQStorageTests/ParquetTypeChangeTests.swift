import DAQCore
import DAQStorage
import DAQTesting
import Foundation
import Testing

/// A field whose declared type widens mid-run (an int field that meets 2.5): written chunks
/// cannot change type, so the rows from there on go to a new file or part, and nothing is lost.
@Suite("Parquet type changes", .timeLimit(.minutes(10)))
struct ParquetTypeChangeTests {
    static func batches() -> [Batch] {
        let ints = StreamDescriptor(fields: [FieldDescriptor("x", .int), FieldDescriptor("k", .string)])
        let doubles = StreamDescriptor(fields: [FieldDescriptor("x", .double), FieldDescriptor("k", .string)])
        func sample(_ i: Int, _ x: Value) -> Sample {
            Sample(
                timestamp: 1_700_000_000 + Double(i), uptime: Double(i), fields: ["x": x, "k": .string("k\(i % 2)")])
        }
        return [
            batch("s", (0..<50).map { sample($0, .int(Int64($0))) }, descriptor: ints),
            batch("s", (50..<100).map { sample($0, .double(Double($0) + 0.5)) }, descriptor: doubles),
        ]
    }

    /// Every x, in order, as DuckDB reads `pattern` with union by name.
    func xs(_ pattern: String) throws -> [String] {
        let script = """
            import sys, duckdb
            rel = duckdb.sql("select x from read_parquet('%s', union_by_name=true) order by uptime" % sys.argv[1])
            print(' '.join(repr(r[0]) for r in rel.fetchall()))
            """
        let r = try Process.runToEnd("python3", ["-c", script, pattern], timeout: 300)
        try #require(r.status == 0, "\(r.errors.suffix(2000))")
        return r.output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
    }

    static let expected = (0..<50).map { "\(Double($0))" } + (50..<100).map { "\(Double($0) + 0.5)" }

    @Test func aSingleFileContinuesInASecondFile() throws {
        let run = try ParquetSinkRun(config: "")
        let dir = try run.run(Self.batches())
        let files = try FileManager.default.contentsOfDirectory(atPath: dir).filter { $0.hasSuffix(".parquet") }
            .sorted()
        #expect(files == ["s-2.parquet", "s.parquet"])
        #expect(try xs(dir + "/s*.parquet") == Self.expected)
        let events = run.log.events.withLock { $0 }
        let warnings = events.compactMap { e -> String? in if case .warning(_, let m) = e { m } else { nil } }
        #expect(warnings.contains { $0.contains("x changed type") && $0.contains("s-2.parquet") }, "\(warnings)")
    }

    @Test func aRolledStreamStartsANewPart() throws {
        let dir = try ParquetSinkRun(config: "roll: {rows: 1000}").run(Self.batches())
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir + "/s").sorted()
        #expect(parts == ["part-00001.parquet", "part-00002.parquet"])
        #expect(try xs(dir + "/s/*.parquet") == Self.expected)
    }
}
