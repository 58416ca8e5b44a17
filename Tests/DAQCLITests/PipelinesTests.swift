import DAQCLI
import DAQCore
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// Every shipped pipeline is validated; every one that needs no hardware is run.
@Suite("pipelines/")
struct PipelinesTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("pipelines")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }.sorted()
    }

    /// Small inputs for the pipelines that take them from the environment.
    static let environment = ["COUNT": "20000"]

    /// What the MQTT pipelines need set, given only to them: others default INPUT themselves.
    static let brokerEnvironment = ["INPUT": "recordings/walk.csv", "MQTT_URL": "mqtt://127.0.0.1:1883", "OUTPUT": "fleet.jsonl"]

    static func environment(for file: String) -> [String: String] {
        let text = (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
        return text.contains("type: mqtt") ? environment.merging(brokerEnvironment) { $1 } : environment
    }

    @Test func thereArePipelines() {
        #expect(Self.files.contains("hello.yaml"))
        #expect(Self.files.contains("bench-engine.yaml"))
    }

    @Test(arguments: files)
    func validates(_ file: String) throws {
        let registry = try PluginRegistry(BuiltinPlugins.all)
        let spec = try PipelineLoader(registry: registry, environment: Self.environment(for: file))
            .load(file: Self.directory.appendingPathComponent(file).path)
        #expect(spec.warnings.isEmpty, "\(spec.warnings)")
    }

    /// Sources that need a device this machine does not have: their pipelines are validated only.
    static let hardware: Set<String> = ["barcode.serial", "barcode.hid", "ble.scan"]

    static func needsHardware(_ file: String) throws -> Bool {
        let spec = try PipelineLoader(registry: try PluginRegistry(BuiltinPlugins.all), environment: environment(for: file))
            .load(file: directory.appendingPathComponent(file).path)
        return spec.components.contains { $0.kind == .source && hardware.contains($0.plugin.typeName) }
    }

    @Test func hardwarePipelinesAreFewAndNamed() throws {
        #expect(try Self.files.filter(Self.needsHardware) == ["barcode-serial.yaml", "ble-live.yaml"])
    }

    /// Pipelines that talk to an MQTT broker: DAQTransportTests runs them against a real one.
    static func needsBroker(_ file: String) throws -> Bool {
        let spec = try PipelineLoader(registry: try PluginRegistry(BuiltinPlugins.all), environment: environment(for: file))
            .load(file: directory.appendingPathComponent(file).path)
        return spec.components.contains { $0.plugin.typeName == "mqtt" }
    }

    @Test func brokerPipelinesAreNamed() throws {
        #expect(try Self.files.filter(Self.needsBroker) == ["broker-to-logger.yaml", "edge-to-broker.yaml"])
    }

    @Test(arguments: files)
    func runs(_ file: String) throws {
        guard try !Self.needsHardware(file), try !Self.needsBroker(file) else { return }
        let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
        // Same data, as fast as possible: the clock does not change what comes out.
        // Outputs go to a directory of this test's own.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("daq-pipeline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var environment = Self.environment
        environment["OUTPUT"] = scratch.appendingPathComponent("out").path
        let out = try PipelineHarness.run(
            yaml: text, plugins: BuiltinPlugins.all, environment: environment, overrides: ["clock=virtual"],
            file: file)
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        let sourced = out.result.stages.filter { $0.kind == .source }.map(\.samplesOut).reduce(0, +)
        #expect(sourced > 0)
        for sink in out.result.stages where sink.kind == .sink { #expect(sink.sent > 0 && sink.failed == 0) }
    }

    @Test func helloPrintsWindowsOfPositiveValues() throws {
        let text = try String(contentsOf: Self.directory.appendingPathComponent("hello.yaml"), encoding: .utf8)
        let out = try PipelineHarness.run(
            yaml: text, plugins: BuiltinPlugins.all, overrides: ["clock=virtual", "sinks.screen.type=collect"],
            file: "hello.yaml")
        let windows = out.data("screen")
        #expect(windows.count == 4)
        #expect(windows.allSatisfy { $0["value_min"]!.doubleValue! > 0 })
        #expect(windows.map { $0["count"]!.intValue! }.reduce(0, +) == out.result.stages[1].samplesOut)
    }
}
