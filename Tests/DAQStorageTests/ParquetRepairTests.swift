import DAQCore
import DAQStorage
import DAQTesting
import Foundation
import Testing

/// `daq repair`'s part for Parquet: a run killed with a part open (its checkpoint beside it)
/// gets that part closed at its last complete row group, and pyarrow, DuckDB and polars read
/// the folder as one table holding every row of every complete row group.
@Suite("Parquet repair", .timeLimit(.minutes(10)))
struct ParquetRepairTests {
    /// 1,100 rows in parts of 600 and row groups of 128, never finished (the run was killed):
    /// part 2 holds three complete row groups (384 rows) and 116 rows only in memory. The bytes
    /// of a fourth row group cut short follow them. Returns the stream's folder.
    static func killedRun() throws -> (folder: String, batches: [Batch]) {
        let batches = ParquetRollTests.batches(1_100, rate: 100)
        let run = try ParquetSinkRun(config: "roll: {rows: 600}\nrow_group_rows: 128")
        for b in batches { try run.sink.write(b, context: run.context) }
        try run.sink.flush(context: run.context)
        let folder = try runDirectory(under: run.base) + "/s"
        let open = try FileHandle(forWritingTo: URL(fileURLWithPath: folder + "/part-00002.parquet"))
        try open.seekToEnd()
        try open.write(contentsOf: Data((0..<777).map { UInt8(truncatingIfNeeded: $0 &* 31) }))
        try open.close()
        return (folder, batches)
    }

    @Test(arguments: ParquetOracle.allCases)
    func aKilledRunsOpenPartIsClosedAtItsLastCompleteRowGroup(oracle: ParquetOracle) throws {
        let (folder, batches) = try Self.killedRun()
        let part = folder + "/part-00002.parquet"
        #expect(FileManager.default.fileExists(atPath: part + ParquetCheckpoint.suffix))
        #expect(throws: ParquetFormatError.self) { try ParquetFileSummary(path: part) }
        let outcome = try ParquetRepair.repairFile(atPath: part)
        #expect(outcome.changed && outcome.rows == 384 && outcome.rowGroups == 3, "\(outcome)")
        #expect(outcome.droppedBytes == 777)
        #expect(!FileManager.default.fileExists(atPath: part + ParquetCheckpoint.suffix))
        // Every row of the complete row groups, in order, as the sink would have written them.
        let kept = Array(expectedRows(batches, fields: ParquetRollTests.descriptor.fields).prefix(984))
        expectRows(try oracle.read(folder), kept, by: oracle)
        // Its footer has the stream's metadata, as a closed part's has.
        let summary = try ParquetFileSummary(path: part)
        #expect(summary.stream == "s" && summary.rows == 384)
        // A second repair finds it complete and leaves it alone.
        let again = try ParquetRepair.repairFile(atPath: part)
        #expect(!again.changed)
    }

    @Test func aPartKilledBeforeItsFirstRowGroupBecomesAnEmptyTableWithItsSchema() throws {
        let batches = ParquetRollTests.batches(700, rate: 100)
        let run = try ParquetSinkRun(config: "roll: {rows: 600}\nrow_group_rows: 128")
        for b in batches { try run.sink.write(b, context: run.context) }
        let folder = try runDirectory(under: run.base) + "/s"
        let outcome = try ParquetRepair.repairFile(atPath: folder + "/part-00002.parquet")
        #expect(outcome.rows == 0 && outcome.rowGroups == 0)
        let table = try ParquetOracle.pyarrow.read(folder)
        #expect(table.rows.count == 600)
        #expect(table.columns.map(\.name).contains("v"))
    }

    @Test func aFileShorterThanItsCheckpointIsRefusedByName() throws {
        let (folder, _) = try Self.killedRun()
        let part = folder + "/part-00002.parquet"
        #expect(truncate(part, 100) == 0)
        do {
            _ = try ParquetRepair.repairFile(atPath: part)
            Issue.record("repaired a file that lost its row groups")
        } catch let e as ParquetFormatError {
            #expect(e.path == part && e.reason.contains("100 bytes, but its checkpoint says"), "\(e)")
        }
        // The checkpoint stays: nothing was changed.
        #expect(FileManager.default.fileExists(atPath: part + ParquetCheckpoint.suffix))
    }

    @Test func aDamagedCheckpointIsRefusedByName() throws {
        let (folder, _) = try Self.killedRun()
        let checkpoint = folder + "/part-00002.parquet" + ParquetCheckpoint.suffix
        try Data("not a checkpoint at all".utf8).write(to: URL(fileURLWithPath: checkpoint))
        do {
            _ = try ParquetRepair.repairFile(atPath: checkpoint)
            Issue.record("repaired from a damaged checkpoint")
        } catch let e as ParquetFormatError {
            #expect(e.path == checkpoint && e.reason.contains("not a checkpoint"), "\(e)")
        }
    }

    @Test func aFinishedRunLeavesNoCheckpoint() throws {
        let dir = try ParquetSinkRun(config: "roll: {rows: 600}\nrow_group_rows: 128").run(
            ParquetRollTests.batches(1_100, rate: 100))
        #expect(ParquetRepair.openFiles(in: dir).isEmpty)
        let files = try FileManager.default.subpathsOfDirectory(atPath: dir).filter { $0.hasSuffix(".footer") }
        #expect(files.isEmpty, "\(files)")
    }
}
