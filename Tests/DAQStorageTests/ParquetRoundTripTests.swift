import DAQCore
import DAQStorage
import DAQTesting
import Foundation
import Testing

/// Files the sink writes, read back by pyarrow, DuckDB and polars: rows, types and values.
@Suite("Parquet round trips", .timeLimit(.minutes(10)))
struct ParquetRoundTripTests {
    static let fields = [
        FieldDescriptor("x", .double, unit: "g"), FieldDescriptor("count", .int),
        FieldDescriptor("worn", .bool), FieldDescriptor("label", .string),
        FieldDescriptor("mixed", .any), FieldDescriptor("raw", .bytes), FieldDescriptor("extra", .object),
    ]
    static let descriptor = StreamDescriptor(fields: fields, rate: .hz(100))

    /// 1,000 rows over every type: nulls, fields some samples lack, events, markers, repeated
    /// and distinct text, negative and fractional numbers.
    static func batches() -> [Batch] {
        let base = 1_700_000_000.123456
        var out: [Batch] = [
            batch(
                "acc",
                [Sample(timestamp: base, uptime: 0, stepPath: "walk", kind: .marker, fields: ["marker": "start"])],
                descriptor: descriptor)
        ]
        for chunk in 0..<10 {
            var samples: [Sample] = []
            for j in 0..<100 {
                let i = chunk * 100 + j
                let uptime = Double(i) / 100
                var f: Fields = ["x": .double(Double(i) * -0.37 + 1.0 / 3), "count": .int(Int64(i * 1_000_003) - 500)]
                if i % 3 != 0 { f["worn"] = .bool(i % 2 == 0) }
                f["label"] = i % 7 == 0 ? .null : .string(i % 5 == 0 ? "walk, \"fast\" ü" : "step \(i % 4)")
                if i % 4 == 0 { f["mixed"] = .int(Int64(i)) } else if i % 4 == 1 { f["mixed"] = .string("t\(i)") }
                if i % 10 == 0 { f["raw"] = .bytes([UInt8(i % 256), 0, 255]) }
                if i == 500 { f["extra"] = .object(["a": .int(1), "b": .array([.bool(true), .null])]) }
                samples.append(
                    Sample(
                        timestamp: base + uptime, uptime: uptime, stepPath: i < 400 ? "walk" : "walk/return",
                        kind: i % 97 == 5 ? .event : .data, fields: f))
            }
            if chunk == 4 {
                samples.insert(
                    Sample(
                        timestamp: base + 4, uptime: 4, stepPath: "walk/return", kind: .marker,
                        fields: ["marker": "step"]),
                    at: 0)
            }
            out.append(batch("acc", samples, descriptor: descriptor))
        }
        out.append(
            batch(
                "acc",
                [
                    Sample(
                        timestamp: base + 10, uptime: 10, stepPath: "walk/return", kind: .marker,
                        fields: ["marker": "stop"])
                ], descriptor: descriptor))
        return out
    }

    static let kinds: [String: ColumnKind] = [
        "timestamp": .timestamp, "uptime": .double, "stepPath": .string, "kind": .string, "marker": .string,
        "x": .double, "count": .int, "worn": .bool, "label": .string, "mixed": .string, "raw": .bytes, "extra": .string,
    ]

    @Test(arguments: ["zstd", "gzip", "none"], ParquetOracle.allCases)
    func everyTypeReadsBack(codec: String, oracle: ParquetOracle) throws {
        let run = try ParquetSinkRun(config: "compression: \(codec)\nrow_group_rows: 300")
        let batches = Self.batches()
        let dir = try run.run(batches)
        let table = try oracle.read(dir + "/acc.parquet")
        #expect(
            table.columns.map(\.name) == ["timestamp", "uptime", "stepPath", "kind", "marker"] + Self.fields.map(\.name)
        )
        for (name, type) in table.columns {
            #expect(type == oracle.typeName(Self.kinds[name] ?? .string), "\(oracle): \(name)")
        }
        expectRows(table, expectedRows(batches, fields: Self.fields), by: oracle)
        #expect(run.delivered == 1_003, "1,000 samples and 3 markers")
    }

    @Test func footerCarriesUnitsAndTheDescriptor() throws {
        let run = try ParquetSinkRun(config: "")
        let dir = try run.run(Self.batches())
        let meta = try ParquetOracle.pyarrow.read(dir + "/acc.parquet").metadata
        #expect(meta["daq.stream"] == "acc")
        #expect(try JSONParser.parse(Array((meta["daq.units"] ?? "").utf8)) == .object(["x": "g"]))
        let descriptor = try StreamDescriptor(json: JSONParser.parse(Array((meta["daq.descriptor"] ?? "").utf8)))
        #expect(descriptor == Self.descriptor)
        #expect(try ParquetOracle.duckdb.read(dir + "/acc.parquet").metadata == meta)
    }

    @Test(arguments: [ParquetOracle.pyarrow, .duckdb])
    func aFieldMetMidRunWidensTheSingleFile(oracle: ParquetOracle) throws {
        let (batches, fields) = Self.widening()
        let run = try ParquetSinkRun(config: "row_group_rows: 64")
        let dir = try run.run(batches)
        let table = try oracle.read(dir + "/s.parquet")
        #expect(table.columns.map(\.name) == ["timestamp", "uptime", "stepPath", "kind", "marker", "a", "b"])
        expectRows(table, expectedRows(batches, fields: fields), by: oracle)
    }

    @Test(arguments: [ParquetOracle.pyarrow, .duckdb, .polars])
    func aFieldMetMidRunStartsANewPart(oracle: ParquetOracle) throws {
        let (batches, fields) = Self.widening()
        let run = try ParquetSinkRun(config: "row_group_rows: 64\nroll: {rows: 1000}")
        let dir = try run.run(batches)
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir + "/s").sorted()
        #expect(parts == ["part-00001.parquet", "part-00002.parquet"])
        let first = try ParquetOracle.pyarrow.read(dir + "/s/part-00001.parquet")
        #expect(first.columns.map(\.name) == ["timestamp", "uptime", "stepPath", "kind", "marker", "a"])
        let table = try oracle.read(dir + "/s")
        expectRows(table, expectedRows(batches, fields: fields), by: oracle)
    }

    /// 150 rows of `a`, then 150 with `b` too, the descriptor widening with the first of them.
    static func widening() -> ([Batch], [FieldDescriptor]) {
        let narrow = StreamDescriptor(fields: [FieldDescriptor("a", .double)])
        let wide = narrow.setting(FieldDescriptor("b", .string, unit: "code"))
        func sample(_ i: Int, b: Bool) -> Sample {
            var f: Fields = ["a": .double(Double(i) / 8)]
            if b { f["b"] = .string("v\(i % 3)") }
            return Sample(timestamp: 1_700_000_000 + Double(i), uptime: Double(i), fields: f)
        }
        let batches = [
            batch("s", (0..<100).map { sample($0, b: false) }, descriptor: narrow),
            batch("s", (100..<150).map { sample($0, b: false) }, descriptor: narrow),
            batch("s", (150..<300).map { sample($0, b: true) }, descriptor: wide),
        ]
        return (batches, wide.fields)
    }
}
