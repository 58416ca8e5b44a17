import DAQCore
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// `type: test.picky` — refuses (throws on) any batch holding a negative `v`.
final class PickyTransform: TransformPlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "test.picky"
    static let summary = "test transform that throws on a negative v"
    init(configuration: Configuration, context: PluginContext) throws {}
    func process(_ batch: inout Batch, context: StageContext) throws {
        if let column = batch.column("v"), (0..<batch.count).contains(where: { (column.double(at: $0) ?? 0) < 0 }) {
            throw PickyError(description: "negative v")
        }
    }
}

/// `type: test.fussy` — a sink whose destination refuses any batch holding a negative `v`.
final class FussySink: SinkPlugin {
    struct Configuration: PluginConfiguration {}
    static let typeName = "test.fussy"
    static let summary = "test sink that refuses a negative v"
    init(configuration: Configuration, context: PluginContext) throws {}
    func write(_ batch: Batch, context: StageContext) throws {
        if let column = batch.column("v"), (0..<batch.count).contains(where: { (column.double(at: $0) ?? 0) < 0 }) {
            throw PickyError(description: "the destination refused a negative v")
        }
        context.delivered(samples: batch.count)
    }
}

struct PickyError: Error, CustomStringConvertible { var description: String }

@Suite("dead letters", .timeLimit(.minutes(20)))
struct DeadLetterTests {
    static let plugins = StandardPlugins.all + [.transform(PickyTransform.self), .sink(FussySink.self)]

    static func file(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("daq-dead-\(UUID().uuidString).jsonl")
            .path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static let values = """
        {"uptime": 0, "v": 1}
        {"uptime": 1, "v": -2}
        {"uptime": 2, "v": 3}
        {"uptime": 3, "v": -4}
        {"uptime": 4, "v": 5}
        """

    @Test func badRowsOfASourceGoToItsDeadOutputWithTheErrorAndTheRow() throws {
        let path = try Self.file("{\"v\": 1}\nnot json\n{\"v\": 2}\n{\"v\": \n{\"v\": 3}\n")
        let outcome = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {src: {type: file, path: "\(path)", on_error: dead_letter}}
                sinks:
                  good: {type: collect, inputs: [src]}
                  dead: {type: collect, inputs: [src.dead]}
                """, plugins: Self.plugins)
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        #expect(outcome.data("good").compactMap { $0["v"]?.doubleValue } == [1, 2, 3])
        let dead = outcome.data("dead")
        #expect(dead.map { $0["raw"] } == [.string("not json"), .string("{\"v\": ")])
        #expect(dead.allSatisfy { $0["component"] == .string("src") && $0.stream == "src.dead" })
        #expect(dead.first.flatMap { $0["error"]?.stringValue }?.hasPrefix("\(path):2: ") == true, "\(dead)")
        #expect(outcome.result.stages.first { $0.name == "src" }?.errors == 2)
    }

    @Test func skipDropsBadRowsWithAWarningEachAndTheRunGoesOn() throws {
        let path = try Self.file("{\"v\": 1}\nnot json\n{\"v\": 2}\n")
        let outcome = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {src: {type: file, path: "\(path)", on_error: skip}}
                sinks: {good: {type: collect, inputs: [src]}}
                """, plugins: Self.plugins)
        #expect(outcome.result.state == .finished)
        #expect(outcome.data("good").count == 2)
        #expect(
            outcome.events.contains {
                if case .warning(let c, let m) = $0 { c == "src" && m.contains(":2: ") } else { false }
            })
    }

    @Test(arguments: [ErrorPolicy.deadLetter, .skip, .stop])
    func aTransformThatThrowsFollowsItsPolicy(policy: ErrorPolicy) throws {
        let path = try Self.file(Self.values)
        let outcome = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {src: {type: file, path: "\(path)"}}
                transforms: {picky: {type: test.picky, inputs: [src], on_error: \(policy.rawValue)}}
                sinks:
                  good: {type: collect, inputs: [picky]}
                \(policy == .deadLetter ? "  dead: {type: collect, inputs: [picky.dead]}" : "")
                """, plugins: Self.plugins, options: RunOptions(batchSize: 1, flushInterval: 0))
        switch policy {
        case .stop:
            #expect(outcome.result.state == .failed)
            #expect(outcome.result.failure?.contains("picky: negative v") == true, "\(outcome.result.failure ?? "")")
        case .skip:
            #expect(outcome.result.state == .finished)
            #expect(outcome.data("good").compactMap { $0["v"]?.doubleValue } == [1, 3, 5])
            #expect(outcome.result.stages.first { $0.name == "picky" }?.errors == 2)
        case .deadLetter:
            #expect(outcome.result.state == .finished)
            #expect(outcome.data("good").compactMap { $0["v"]?.doubleValue } == [1, 3, 5])
            let dead = outcome.data("dead")
            #expect(dead.compactMap { $0["v"]?.doubleValue } == [-2, -4])
            #expect(dead.map(\.uptime) == [1, 3], "the samples keep their own time")
            #expect(dead.allSatisfy { $0["error"] == .string("negative v") && $0["component"] == .string("picky") })
        }
    }

    @Test func aSinkWhoseDestinationRefusesSamplesSendsThemOn() throws {
        let path = try Self.file(Self.values)
        let outcome = try PipelineHarness.run(
            yaml: """
                clock: virtual
                sources: {src: {type: file, path: "\(path)"}}
                sinks:
                  upload: {type: test.fussy, inputs: [src], on_error: dead_letter}
                  dead: {type: collect, inputs: [upload.dead]}
                """, plugins: Self.plugins, options: RunOptions(batchSize: 1, flushInterval: 0))
        #expect(outcome.result.state == .finished, "\(outcome.result.failure ?? "")")
        let dead = outcome.data("dead")
        #expect(dead.compactMap { $0["v"]?.doubleValue } == [-2, -4])
        #expect(dead.first?["error"] == .string("the destination refused a negative v"))
        // The three samples it took, and the start and stop markers.
        #expect(outcome.result.stages.first { $0.name == "upload" }?.delivered == 5)
    }

    @Test func readingDeadLettersIsCheckedLikeAnyInput() throws {
        let loader = PipelineLoader(registry: try PluginRegistry(Self.plugins + [.collect]), environment: [:])
        let yaml = """
            sources:
              src: {type: generator, count: 1}
              gen: {type: generator, count: 1, on_error: dead_letter}
            sinks:
              a: {type: collect, inputs: [src.dead]}
              b: {type: collect, inputs: [srx.dead]}
              c: {type: collect, inputs: [gen.dead]}
            """
        do {
            _ = try loader.load(text: yaml, file: "p.yaml")
            Issue.record("loaded")
        } catch {
            let messages = error.diagnostics.map(\.description)
            #expect(
                messages.contains {
                    $0.contains(
                        "p.yaml:5:31: error: sinks.a.inputs: 'src' sends no dead letters; set 'on_error: dead_letter'")
                }, "\(messages)")
            #expect(
                messages.contains {
                    $0.contains("sinks.b.inputs: unknown component 'srx' in 'srx.dead' (did you mean 'src.dead'?)")
                }, "\(messages)")
            #expect(messages.count == 2, "\(messages)")
        }
    }
}
