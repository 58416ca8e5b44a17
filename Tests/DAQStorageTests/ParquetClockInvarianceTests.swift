import DAQCore
import DAQStandard
import DAQStorage
import DAQTesting
import Foundation
import Testing

/// The same pipeline into Parquet at the virtual and replay clocks, in batches of 1, 7 and
/// 4,096: the files pyarrow reads hold the same rows. Times are compared from the run's start,
/// the one thing that differs between runs.
@Suite("Parquet at every clock and batch size", .timeLimit(.minutes(10)))
struct ParquetClockInvarianceTests {
    /// Every row of `file` as text, without its absolute times, which differ between runs by
    /// their start (and by a microsecond of rounding with it). Those are checked instead
    /// against the row's `uptime`: each is the run's start plus its run-clock time.
    static func rows(_ file: String) throws -> [String] {
        let rows = try ParquetOracle.pyarrow.read(file).rows
        let first = try #require(rows.first { $0["kind"] == "data" })
        let t0 = Double(first["timestamp"]?.intValue ?? 0) / 1e6 - (first["uptime"]?.doubleValue ?? 0)
        return rows.map { row in
            let uptime = row["uptime"]?.doubleValue ?? .nan
            let times: [(String, Double, Double)] = [
                ("timestamp", Double(row["timestamp"]?.intValue ?? 0) / 1e6, uptime),
                ("window_end", row["window_end"]?.doubleValue ?? .nan, uptime),
                ("window_start", row["window_start"]?.doubleValue ?? .nan, uptime - 1),
            ]
            var r = row
            for (key, time, expected) in times where row[key].map({ !$0.isNull }) == true {
                #expect(abs(time - t0 - expected) < 2e-6, "\(key) of \(row)")
                r[key] = nil
            }
            return "\(r)"
        }
    }

    static func run(clock: String, batchSize: Int) throws -> (raw: [String], windows: [String]) {
        let base = tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: base) }
        let yaml = """
            name: pq-clocks
            clock: \(clock)
            speed: 200
            steps: [{path: rest, at: 0}, {path: walk, at: 3.3}]
            sources: {gen: {type: generator, signal: noise, rate: 100, count: 1000}}
            transforms:
              win: {type: window, inputs: [gen], size: 1s, field: value, stats: [count, mean, min, max]}
            sinks:
              pq: {type: parquet, inputs: [gen, win], directory: "\(base)", row_group_rows: 100}
            """
        let outcome = try PipelineHarness.run(
            yaml: yaml, plugins: StandardPlugins.all + StoragePlugins.all,
            options: RunOptions(batchSize: batchSize, flushInterval: 0))
        try #require(outcome.result.state == .finished, "\(clock), batches of \(batchSize)")
        let dir = try runDirectory(under: base)
        return (try rows(dir + "/gen.parquet"), try rows(dir + "/win.parquet"))
    }

    @Test func theSameRowsAtEveryClockAndBatchSize() throws {
        let reference = try Self.run(clock: "virtual", batchSize: 4096)
        #expect(reference.raw.count == 1000 + 3, "1000 samples, start, step and stop markers")
        #expect(reference.windows.count >= 10)
        for (clock, size) in [("virtual", 1), ("virtual", 7), ("replay", 1), ("replay", 7), ("replay", 4096)] {
            let other = try Self.run(clock: clock, batchSize: size)
            #expect(other.raw == reference.raw, "\(clock) clock, batches of \(size): raw rows differ")
            #expect(other.windows == reference.windows, "\(clock) clock, batches of \(size): windows differ")
        }
    }
}
