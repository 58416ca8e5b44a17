import DAQCore
import DAQKit
import Foundation
import Testing

@testable import DAQCLI

@Suite("daq batch", .timeLimit(.minutes(20)))
struct BatchTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let pipeline = repository.appendingPathComponent("pipelines/accelerometer-replay.yaml").path

    func scratch() throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-batch-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    func spec() throws -> PipelineSpec {
        try PipelineLoader(registry: PluginRegistry(BuiltinPlugins.all), environment: [:]).load(file: Self.pipeline)
    }

    @Test(arguments: [1, 2, 3, 5, 8])
    func shardsPartitionTheInputs(_ n: Int) throws {
        let inputs = (0..<97).map { "data/session-\($0).csv" }
        var seen: [String: Int] = [:]
        for k in 1...n {
            var plan = try BatchPlan(spec: spec(), inputs: inputs, output: "out", source: nil)
            plan.keepShard(k, of: n)
            for item in plan.items { seen[item.input, default: 0] += 1 }
        }
        #expect(seen.count == inputs.count)
        #expect(seen.values.allSatisfy { $0 == 1 })
    }

    @Test func eachRunReadsItsRecordingAndWritesUnderItsOwnFolder() throws {
        let plan = try BatchPlan(
            spec: spec(), inputs: ["a/walk.csv", "b/walk.csv", "c/run.csv.gz"], output: "out", source: nil)
        #expect(plan.items.map(\.name).filter { $0.hasPrefix("walk-") }.count == 2)
        #expect(plan.items.last?.name == "run")
        #expect(plan.items.last?.overrides.contains("sources.accel.path=\"c/run.csv.gz\"") == true)
        #expect(plan.items.last?.overrides.contains("sinks.log.directory=\"out/run\"") == true)
        #expect(plan.items.last?.overrides.contains("clock=virtual") == true)
    }

    @Test func anInterruptedBatchResumesAndFailuresDoNotStopIt() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let walk = Self.repository.appendingPathComponent("recordings/walk.csv").path
        for name in ["one", "two", "three"] {
            try FileManager.default.copyItem(atPath: walk, toPath: "\(dir)/\(name).csv")
        }
        try "timestamp,x,y,z\n0,1,2\n".write(toFile: "\(dir)/broken.csv", atomically: true, encoding: .utf8)
        let registry = try PluginRegistry(BuiltinPlugins.all)
        func runBatch() throws -> [String: BatchResult.Status] {
            let plan = try BatchPlan(spec: spec(), inputs: ["\(dir)/*.csv"], output: "\(dir)/out", source: nil)
            let runner = BatchRunner(plan: plan, registry: registry, overrides: [], pipeline: Self.pipeline, jobs: 2)
            return Dictionary(
                uniqueKeysWithValues: runner.runAll().map { (($0.input as NSString).lastPathComponent, $0.status) })
        }
        let first = try runBatch()
        #expect(first == ["one.csv": .finished, "two.csv": .finished, "three.csv": .finished, "broken.csv": .failed])
        // As if the batch had been killed while `two` ran: its record is gone.
        try FileManager.default.removeItem(atPath: "\(dir)/out/two/batch.json")
        let second = try runBatch()
        #expect(second == ["one.csv": .skipped, "two.csv": .finished, "three.csv": .skipped, "broken.csv": .failed])
        let record = try #require(BatchRecord.read("\(dir)/out/one/batch.json"))
        #expect(record.samples == 6000 && record.status == "finished")
    }
}
