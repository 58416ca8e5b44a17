import DAQCore
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// Errors of the real readers and writers reach the run's result with their code and place.
@Suite("Typed errors of the file source and sink", .timeLimit(.minutes(20)))
struct TypedErrorRunTests {
    @Test func aCutGzipFailsTheRunAtItsCompressedByte() throws {
        let (path, at) = try FileSourceInputTests().cutGzip(lines: 50_000)
        let out = try PipelineHarness.run(
            yaml: """
                sources: {in: {type: file, path: "\(path)"}}
                sinks: {out: {type: collect, inputs: [in]}}
                """, plugins: StandardPlugins.all)
        #expect(out.result.state == .failed)
        let error = try #require(out.result.error)
        #expect(error.code == .badInput)
        #expect(error.component == "in")
        #expect(error.location == DAQError.Location(file: path, byteOffset: Int64(at)))
        #expect(error.underlying is CompressedInputError)
        let lines = out.data("out").count
        #expect(
            error.message
                == "\(path): the gzip data ends early at compressed byte \(at), inside the compressed data of the first gzip member "
                + "(the file is cut short); line \(lines + 1) is the last complete line, nothing after it is read")
        #expect(out.events.contains(.failed(component: "in", error: error)))
    }

    @Test func aSinkThatCannotOpenItsFileFailsTheStartWithTheFileNamed() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-start-\(UUID().uuidString)").path
        try Data("not a directory".utf8).write(to: URL(fileURLWithPath: dir))
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/out.jsonl"
        let registry = try PluginRegistry(StandardPlugins.all)
        let spec = try PipelineLoader(registry: registry, environment: [:]).load(
            text: """
                sources: {gen: {type: generator, count: 3}}
                sinks: {log: {type: file, inputs: [gen], path: "\(path)"}}
                """, file: "t.yaml")
        let run = try PipelineRun(spec: spec)
        let thrown = try #require(throws: PipelineStartError.self) { try run.start() }
        let result = run.wait()
        #expect(result.state == .failed)
        let error = try #require(result.error)
        #expect(error.code == .fileFailed, "the file's own code says more than start_failed")
        #expect(error.component == "log")
        #expect(error.location == DAQError.Location(file: path))
        #expect(error.failureLine == thrown.description, "the run's failure line is the start error's text")
        #expect(thrown.description.hasPrefix("sinks.log: \(path): "))
    }
}
