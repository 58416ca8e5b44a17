import Foundation
import Testing

/// `daq describe`, `daq plugins describe` and the manifest's `streams`, through the real `daq`:
/// what every component emits, known before anything runs.
@Suite("stream descriptors through daq")
struct DescribeTests {
    static var pipelines: [String] {
        let dir = DAQBinary.repository.appendingPathComponent("pipelines").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir)) ?? [])
            .filter { $0.hasSuffix(".yaml") && !$0.contains(".daqtest.") }.sorted()
    }

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    @Test func theShippedPipelinesAreAllHere() {
        #expect(Self.pipelines.count == 22, "\(Self.pipelines)")
    }

    /// Every shipped pipeline, whatever it needs to run (a device, a broker, a variable), is
    /// described: each source and transform with its fields, typed.
    @Test(arguments: pipelines)
    func everyShippedPipelineIsDescribed(_ file: String) throws {
        // What the broker pipelines take from the environment, as a user sets it; no broker runs.
        let environment =
            file.contains("broker")
            ? ["INPUT": "recordings/walk.csv", "OUTPUT": "out/describe.jsonl", "MQTT_URL": "mqtt://127.0.0.1:1883"]
            : [:]
        let r = try DAQBinary.run(["describe", "pipelines/" + file, "--json"], environment: environment)
        #expect(r.status == 0, "\(r.err)")
        let components = try #require(try Self.json(r.out)["components"] as? [String: [String: Any]], "\(r.out)")
        #expect(!components.isEmpty)
        let types: Set<String> = ["double", "int", "bool", "string", "bytes", "array", "object", "any"]
        for (name, c) in components where c["kind"] as? String != "sink" {
            let fields = try #require(c["fields"] as? [[String: Any]], "\(name): \(c)")
            #expect(fields.allSatisfy { types.contains($0["type"] as? String ?? "") }, "\(name): \(fields)")
            #expect(c.keys.contains("rate_hz") && c["time_base"] is String, "\(name): \(c)")
        }
    }

    /// The flagship pipeline: the axes of the .cwa in g, its ENMO epochs in mg at 0.2 Hz, dated
    /// on the device's clock.
    @Test func theActivitySummaryNamesItsUnitsAndRates() throws {
        let r = try DAQBinary.run(["describe", "pipelines/activity-summary.yaml", "--json"])
        try #require(r.status == 0, "\(r.err)")
        let components = try #require(try Self.json(r.out)["components"] as? [String: [String: Any]])
        func field(_ component: String, _ name: String) -> [String: Any]? {
            (components[component]?["fields"] as? [[String: Any]])?.first { $0["name"] as? String == name }
        }
        let wrist = try #require(components["wrist"])
        #expect(wrist["rate_hz"] as? Double == 12.5 && wrist["time_base"] as? String == "recorded", "\(wrist)")
        #expect((wrist["origin"] as? [String: Any])?["device"] as? String == "AX3", "\(wrist)")
        for axis in ["x", "y", "z"] {
            #expect(
                field("wrist", axis)?["unit"] as? String == "g" && field("wrist", axis)?["type"] as? String == "double")
        }
        #expect(field("epochs", "enmo_mg")?["unit"] as? String == "mg", "\(components["epochs"] ?? [:])")
        #expect(components["epochs"]?["rate_hz"] as? Double == 0.2)
        #expect(field("worn", "nonwear")?["type"] as? String == "bool")
        let text = try DAQBinary.run(["describe", "pipelines/activity-summary.yaml"])
        #expect(text.status == 0 && text.out.contains("epochs (transform motion.enmo)\n  0.2 Hz;"), "\(text.out)")
    }

    /// A variable nobody set leaves out what needs it, with a note, and still exits 0.
    @Test func anUnsetVariableIsANote() throws {
        let r = try DAQBinary.run(
            ["describe", "pipelines/edge-to-broker.yaml", "--json"], unset: ["INPUT", "OUTPUT", "MQTT_URL"])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.contains("note:") && r.err.contains("MQTT_URL"), "\(r.err)")
        #expect(try Self.json(r.out)["components"] is [String: Any], "\(r.out)")
    }

    /// A missing input is said before anything runs, with its path, and exits 2.
    @Test func aMissingRecordingIsAConfigurationError() throws {
        let r = try DAQBinary.run(
            ["describe", "pipelines/accelerometer-replay.yaml", "--set", "sources.accel.path=/nonexistent/walk.csv"])
        #expect(r.status == 2, "\(r.out)\n\(r.err)")
        #expect(r.err.contains("sources.accel") && r.err.contains("/nonexistent/walk.csv"), "\(r.err)")
    }

    /// `daq plugins describe` says what a type emits, with units, after its keys.
    @Test func pluginsDescribeSaysWhatATypeEmits() throws {
        let r = try DAQBinary.run(["plugins", "describe", "motion.enmo"])
        #expect(r.status == 0, "\(r.err)")
        let emits = try #require(r.out.range(of: "  emits:"), "\(r.out)")
        let after = r.out[emits.upperBound...]
        #expect(after.contains("enmo_mg") && after.contains("mg") && after.contains("partial"), "\(after)")
    }

    /// Lines fit the terminal: each key on its own line, its meaning broken below it.
    @Test(arguments: [60, 100]) func pluginsDescribeFitsTheTerminal(columns: Int) throws {
        for type in ["window", "motion.replay", "infomanager.resolve"] {
            let r = try DAQBinary.run(["plugins", "describe", type], environment: ["COLUMNS": "\(columns)"])
            #expect(r.status == 0, "\(r.err)")
            let long = r.out.split(separator: "\n").filter { $0.count > columns && $0.contains(" ") }
            #expect(long.isEmpty, "\(type): \(long)")
            #expect(r.out.contains("\n    size seconds, required\n") || type != "window", "\(r.out)")
        }
    }

    /// The run's manifest records each component's descriptor as it ended: a JSON Lines file's
    /// fields, found as the lines came, with their types.
    @Test func theManifestRecordsEveryStream() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("daq-streams-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try "{\"a\": 1}\n{\"a\": 2.5, \"b\": \"x\"}\n".write(
            toFile: dir + "/in.jsonl", atomically: true, encoding: .utf8)
        try """
        name: streams
        clock: virtual
        sources:
          in: {type: file, path: "\(dir)/in.jsonl"}
        sinks:
          log: {type: logger.jsonl, inputs: [in], directory: "\(dir)/out"}
        """.write(toFile: dir + "/p.yaml", atomically: true, encoding: .utf8)
        let r = try DAQBinary.run(["run", dir + "/p.yaml", "--status", "never"])
        try #require(r.status == 0, "\(r.err)")
        let runDir = try #require(try FileManager.default.contentsOfDirectory(atPath: dir + "/out").first)
        let manifest = try Self.json(try String(contentsOfFile: "\(dir)/out/\(runDir)/manifest.json", encoding: .utf8))
        let stream = try #require((manifest["streams"] as? [String: Any])?["in"] as? [String: Any], "\(manifest)")
        let fields = try #require(stream["fields"] as? [[String: Any]])
        // `a` was declared an int from the first line and widened to double by the second,
        // which brought `b` too.
        #expect(fields.compactMap { $0["name"] as? String } == ["a", "b"], "\(fields)")
        #expect(fields.compactMap { $0["type"] as? String } == ["double", "string"], "\(fields)")
        #expect(stream["time_base"] as? String == "run" && (stream["origin"] as? [String: Any])?["file"] != nil)
    }
}
