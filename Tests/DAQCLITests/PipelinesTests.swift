import DAQCLI
import DAQCore
import DAQKit
import DAQStandard
import DAQTesting
import Foundation
import Testing

/// Every shipped pipeline is validated; every one that needs no hardware is run.
@Suite("pipelines/", .timeLimit(.minutes(20)))
struct PipelinesTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("pipelines")

    static var files: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { ($0.hasSuffix(".yaml") || $0.hasSuffix(".yml")) && !$0.contains(".daqtest.") }.sorted()
    }

    /// Small inputs for the pipelines that take them from the environment.
    static let environment = ["COUNT": "20000"]

    /// What the MQTT pipelines need set, given only to them: others default INPUT themselves.
    static let brokerEnvironment = [
        "INPUT": "recordings/walk.csv", "MQTT_URL": "mqtt://127.0.0.1:1883", "OUTPUT": "out/fleet.jsonl",
    ]

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

    /// Where a shipped pipeline writes when run as its comment says, with no OUTPUT set: under
    /// `out/` (gitignored), never beside the sources in the repository's root.
    @Test(arguments: files)
    func defaultOutputsGoUnderOut(_ file: String) throws {
        let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
        var inSinks = false
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if !line.hasPrefix(" ") && !line.hasPrefix("#") && !line.isEmpty { inSinks = line.hasPrefix("sinks:") }
            guard inSinks else { continue }
            let trimmed = line.drop { $0 == " " }
            guard let key = ["path:", "directory:", "spool:"].first(where: { trimmed.hasPrefix($0) }) else { continue }
            var value = trimmed.dropFirst(key.count).drop { $0 == " " }
            if let hash = value.firstIndex(of: "#") { value = value[..<hash] }
            var output = String(value).trimmingCharacters(in: .whitespaces)
            output = output.trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
            if output.hasPrefix("${") {
                // `${OUTPUT:-default}`: the default is where it writes; `${OUTPUT}` must be set.
                guard let dash = output.range(of: ":-") else { continue }
                output = String(output[dash.upperBound...].dropLast())
            }
            #expect(output == "out" || output.hasPrefix("out/"), "\(file):\(number + 1): \(key) \(output)")
        }
    }

    /// Sources that need a device this machine does not have: their pipelines are validated only.
    static let hardware: Set<String> = ["barcode.serial", "barcode.hid", "ble.scan"]

    static func needsHardware(_ file: String) throws -> Bool {
        let spec = try PipelineLoader(
            registry: try PluginRegistry(BuiltinPlugins.all), environment: environment(for: file)
        )
        .load(file: directory.appendingPathComponent(file).path)
        return spec.components.contains { $0.kind == .source && hardware.contains($0.plugin.typeName) }
    }

    @Test func hardwarePipelinesAreFewAndNamed() throws {
        #expect(try Self.files.filter(Self.needsHardware) == ["barcode-serial.yaml", "ble-live.yaml"])
    }
    /// Pipelines that talk to an MQTT broker: DAQTransportTests runs them against a real one.
    static func needsBroker(_ file: String) throws -> Bool {
        let spec = try PipelineLoader(
            registry: try PluginRegistry(BuiltinPlugins.all), environment: environment(for: file)
        )
        .load(file: directory.appendingPathComponent(file).path)
        return spec.components.contains { $0.plugin.typeName == "mqtt" }
    }

    @Test func brokerPipelinesAreNamed() throws {
        #expect(try Self.files.filter(Self.needsBroker) == ["broker-to-logger.yaml", "edge-to-broker.yaml"])
    }

    /// Pipelines that write to a PostgreSQL server: DAQStorageTests runs them against a real one.
    static func needsDatabase(_ file: String) throws -> Bool {
        let spec = try PipelineLoader(
            registry: try PluginRegistry(BuiltinPlugins.all), environment: environment(for: file)
        )
        .load(file: directory.appendingPathComponent(file).path)
        return spec.components.contains { $0.plugin.typeName == "postgres" }
    }

    @Test func databasePipelinesAreNamed() throws {
        #expect(try Self.files.filter(Self.needsDatabase) == ["to-postgres.yaml"])
    }

    /// Pipelines that speak Lab Streaming Layer: DAQLSLTests runs them inside a network namespace
    /// of its own, so no LSL packet leaves the machine.
    static func needsLSL(_ file: String) throws -> Bool {
        let spec = try PipelineLoader(
            registry: try PluginRegistry(BuiltinPlugins.all), environment: environment(for: file)
        )
        .load(file: directory.appendingPathComponent(file).path)
        return spec.components.contains { $0.plugin.typeName == "lsl" }
    }

    /// The pipelines run here: those that need neither a device, a broker, a database nor LSL.
    static var runnable: [String] {
        files.filter { (try? !needsHardware($0) && !needsBroker($0) && !needsDatabase($0) && !needsLSL($0)) ?? true }
    }

    /// What the sources of every runnable pipeline emit, counted by readers others wrote
    /// (`Tests/Fixtures/pipelines/source-counts.py`: Python's csv and json, actfast, pygt3x,
    /// tshark), in the repository's root with this suite's environment.
    static let sourceCounts = Result<[String: Int], any Error> {
        let root = directory.deletingLastPathComponent()
        let r = try Process.runToEnd(
            "python3",
            [root.appendingPathComponent("Tests/Fixtures/pipelines/source-counts.py").path]
                + runnable.map { directory.appendingPathComponent($0).path },
            directory: root.path, environment: environment, timeout: 600)
        guard r.status == 0, let counts = try JSONSerialization.jsonObject(with: r.stdout) as? [String: Int] else {
            throw ServiceProcessError(
                message:
                    "source-counts.py failed (scripts/test.sh installs PyYAML, actfast, pygt3x and tshark), exit \(r.status)",
                output: r.output, errors: r.errors)
        }
        return counts
    }

    @Test(arguments: runnable)
    func runs(_ file: String) throws {
        let text = try String(contentsOf: Self.directory.appendingPathComponent(file), encoding: .utf8)
        // Same data, as fast as possible: the clock does not change what comes out.
        // Outputs go to a directory of this test's own.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("daq-pipeline-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var environment = Self.environment
        environment["OUTPUT"] = scratch.appendingPathComponent("out").path
        // The resolver examples talk to the reference service: started for them on loopback.
        var server: ServiceProcess?
        defer { server?.stop() }
        if file.hasPrefix("resolve-") {
            let started = try Self.referenceServer()
            server = started.0
            environment["RESOLVER_URL"] = started.url
            environment["CACHE_PATH"] = scratch.appendingPathComponent("cache.jsonl").path
        }
        let out = try PipelineHarness.run(
            yaml: text, plugins: BuiltinPlugins.all, environment: environment, overrides: ["clock=virtual"],
            file: file)
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        let sourced = out.result.stages.filter { $0.kind == .source }.map(\.samplesOut).reduce(0, +)
        #expect(sourced == (try Self.sourceCounts.get())[file], "samples its sources emitted")
        for sink in out.result.stages where sink.kind == .sink { #expect(sink.sent > 0 && sink.failed == 0) }
    }

    /// `daq resolver serve` with the shipped elements on a free loopback port.
    static func referenceServer() throws -> (ServiceProcess, url: String) {
        let elements = directory.deletingLastPathComponent().appendingPathComponent("recordings/elements.yaml").path
        let server = try ServiceProcess.start(
            ServiceProcess.builtExecutable("daq"), ["resolver", "serve", "--data", elements, "--port", "0"])
        let line = try server.waitForLine { $0.hasPrefix("daq resolver: serving") }
        return (server, String(line.split(separator: " ").last ?? ""))
    }

    @Test func resolveIdsWritesEverySampleWithItsState() throws {
        let (server, url) = try Self.referenceServer()
        defer { server.stop() }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "daq-resolve-ids-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let text = try String(contentsOf: Self.directory.appendingPathComponent("resolve-ids.yaml"), encoding: .utf8)
        let out = try PipelineHarness.run(
            yaml: text, plugins: BuiltinPlugins.all,
            environment: ["RESOLVER_URL": url, "OUTPUT": scratch.path, "LANGUAGES": "de,en"], file: "resolve-ids.yaml")
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        let lines = try String(contentsOf: scratch, encoding: .utf8).split(separator: "\n").map {
            try JSONParser.parse(Array($0.utf8))
        }
        func field(_ v: Value, _ key: String) -> String? {
            if case .object(let f) = v { return f[key]?.stringValue }
            return nil
        }
        #expect(
            lines.map { field($0, "resolve_state") } == [
                "RESOLVED", "RESOLVED", "RESOLVED", "NODATA", "RESOLVED", "RESOLVED",
            ])
        #expect(
            lines.map { field($0, "name") } == [
                "Bleistift", "Probendosen", "Laboreingang", nil, "Bleistift", "Cold room",
            ])
        #expect(
            lines.map { field($0, "station") } == ["goods-in", "goods-in", "door", "goods-in", "shelf-3", "cold-room"])
    }

    @Test func resolveBeaconsNamesEveryModule() throws {
        let (server, url) = try Self.referenceServer()
        defer { server.stop() }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "daq-resolve-beacons-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let text = try String(
            contentsOf: Self.directory.appendingPathComponent("resolve-beacons.yaml"), encoding: .utf8)
        let out = try PipelineHarness.run(
            yaml: text, plugins: BuiltinPlugins.all,
            environment: [
                "RESOLVER_URL": url, "OUTPUT": scratch.path,
                "CACHE_PATH": scratch.appendingPathComponent("cache.jsonl").path,
            ],
            overrides: ["clock=virtual"], file: "resolve-beacons.yaml")
        #expect(out.result.state == .finished, "\(out.result.failure ?? "")")
        let run = try #require(
            try FileManager.default.contentsOfDirectory(atPath: scratch.path).first { $0.hasPrefix("resolve-beacons-") }
        )
        let lines = try String(
            contentsOfFile: scratch.appendingPathComponent(run).appendingPathComponent("modules.jsonl").path,
            encoding: .utf8
        )
        .split(separator: "\n").map { try JSONParser.parse(Array($0.utf8)) }
        func field(_ v: Value, _ key: String) -> String? {
            if case .object(let f) = v { return f[key]?.stringValue }
            return nil
        }
        var names: [String: Set<String>] = [:]
        for line in lines {
            guard let module = field(line, "module") else { continue }
            names[module, default: []].insert(
                "\(field(line, "info.resolve_state") ?? "-") \(field(line, "info.name") ?? "-")")
        }
        // Merged into the first request or served from the cache: which depends on batching.
        func named(_ module: String, _ name: String) -> Bool {
            guard let seen = names[module], !seen.isEmpty else { return false }
            return seen.allSatisfy { $0 == "RESOLVED \(name)" || $0 == "CACHED \(name)" }
        }
        #expect(named("ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:1:2", "Lab entrance"))
        #expect(named("eddystone:EDD1EBEAC04E5DEFA017:0BDB87539B67", "Cold room"))
        #expect(named("CB:B8:33:4C:88:4F", "Freezer sensor"))
        #expect(names["ibeacon:E2C56DB5-DFFB-48D2-B060-D0F5A71096E0:3:4"] == ["NODATA -"])
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
