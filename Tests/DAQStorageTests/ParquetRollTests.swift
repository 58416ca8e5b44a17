import DAQCore
import DAQStorage
import DAQTesting
import Foundation
import Testing

/// `roll`: parts closed whole by rows or run-clock time.
@Suite("Parquet parts", .timeLimit(.minutes(10)))
struct ParquetRollTests {
    static let descriptor = StreamDescriptor(fields: [FieldDescriptor("v", .double), FieldDescriptor("n", .int)])

    static func batches(_ count: Int, rate: Double) -> [Batch] {
        stride(from: 0, to: count, by: 64).map { start in
            batch(
                "s",
                (start..<min(count, start + 64)).map { i in
                    Sample(
                        timestamp: 1_700_000_000 + Double(i) / rate, uptime: Double(i) / rate,
                        fields: ["v": .double(Double(i) * 0.5), "n": .int(Int64(i))])
                }, descriptor: descriptor)
        }
    }

    @Test(arguments: [ParquetOracle.pyarrow, .duckdb])
    func rollsByRows(oracle: ParquetOracle) throws {
        let batches = Self.batches(1_000, rate: 100)
        let dir = try ParquetSinkRun(config: "roll: {rows: 300}\nrow_group_rows: 128").run(batches)
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir + "/s").sorted()
        #expect(parts == (1...4).map { "part-0000\($0).parquet" })
        for (i, part) in parts.enumerated() {
            let rows = try ParquetOracle.pyarrow.read(dir + "/s/" + part).rows.count
            #expect(rows == (i < 3 ? 300 : 100), "\(part)")
        }
        expectRows(try oracle.read(dir + "/s"), expectedRows(batches, fields: Self.descriptor.fields), by: oracle)
    }

    @Test func rollsByRunClockTime() throws {
        // 25 s at 10 Hz in parts of 10 s: uptimes [0, 10), [10, 20), [20, 25).
        let batches = Self.batches(250, rate: 10)
        let dir = try ParquetSinkRun(config: "roll: {seconds: 10s}").run(batches)
        let parts = try FileManager.default.contentsOfDirectory(atPath: dir + "/s").sorted()
        #expect(parts.count == 3)
        for (i, part) in parts.enumerated() {
            let uptimes = try ParquetOracle.pyarrow.read(dir + "/s/" + part).rows.compactMap {
                $0["uptime"]?.doubleValue
            }
            #expect(uptimes.count == (i < 2 ? 100 : 50), "\(part)")
            #expect(uptimes.allSatisfy { $0 >= Double(i * 10) && $0 < Double(i * 10 + 10) }, "\(part)")
        }
    }

    @Test func badRollIsAConfigurationError() throws {
        #expect(throws: (any Error).self) { try ParquetSinkRun(config: "roll: {}") }
        #expect(throws: (any Error).self) { try ParquetSinkRun(config: "roll: {rows: 0}") }
        #expect(throws: (any Error).self) { try ParquetSinkRun(config: "row_group_rows: 0") }
        #expect(throws: (any Error).self) { try ParquetSinkRun(config: "compression: lz4") }
    }
}
