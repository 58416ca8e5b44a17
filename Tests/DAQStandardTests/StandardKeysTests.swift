import DAQCore
import DAQTesting
import Testing

@testable import DAQStandard

/// Every key a Standard plugin describes is the key its configuration reads: written with a
/// value other than its default, each one reaches the decoded configuration.
@Suite("Standard configuration keys", .timeLimit(.minutes(20)))
struct StandardKeysTests {
    /// The decoded configuration's keys and values, as the default column would show them.
    func values<C: PluginConfiguration & SettingGroup>(_ type: C.Type, _ yaml: String) throws -> String? {
        try PluginConfigLoader.decode(type, yaml: yaml).configText
    }

    @Test func sourcesReadEveryDescribedKey() throws {
        #expect(
            try values(
                GeneratorSource.Configuration.self,
                "signal: square\nrate: 5\ncount: 3\namplitude: 2\nfrequency: 3\noffset: 1\nfield: v\nseed: 7")
                == "{signal: square, rate: 5, count: 3, amplitude: 2, frequency: 3, offset: 1, field: v, seed: 7}")
        #expect(GeneratorSource.configKeys.count == 8)
        let file = try PluginConfigLoader.decode(
            FileSource.Configuration.self,
            yaml: "path: a.csv\nformat: csv\ndelimiter: ';'\ntime_field: t\nrate: 50\non_bad_row: skip\nnan: keep")
        #expect(file.path == "a.csv")
        #expect(file.configText == "{format: csv, delimiter: ;, time_field: t, rate: 50, on_bad_row: skip, nan: keep}")
        #expect(FileSource.configKeys.count == 7)
        #expect(
            try values(
                StdinSource.Configuration.self, "format: text\ndelimiter: ';'\nfield: l\non_bad_row: skip\nnan: skip")
                == "{format: text, delimiter: ;, field: l, on_bad_row: skip, nan: skip}")
        #expect(StdinSource.configKeys.count == 5)
    }

    @Test func execReadsEveryDescribedKey() throws {
        let exec = try PluginConfigLoader.decode(
            ExecSettings.self,
            yaml: """
                command: [cat, -u]
                env: {A: b}
                clear_environment: true
                cwd: /tmp
                timeout: 5s
                on_failure: restart
                restart_delay: 2s
                max_restarts: 3
                stop_timeout: 1s
                max_line: 2048
                config: {k: 1}
                """)
        #expect(exec.command == ["cat", "-u"] && exec.env == ["A": "b"] && exec.cwd == "/tmp")
        #expect(exec.timeout == Seconds(5) && exec.onFailure == .restart && exec.restartDelay == Seconds(2))
        #expect(exec.maxRestarts == 3 && exec.maxLine == 2048 && exec.config.value == .object(["k": .int(1)]))
        #expect(exec.clearEnvironment && exec.stopTimeout == Seconds(1))
        for keys in [ExecSource.configKeys, ExecTransform.configKeys, ExecSink.configKeys] { #expect(keys.count == 11) }
        let timeout = ExecSink.configKeys.first { $0.name == "timeout" }
        #expect(timeout?.defaultValue == "30 s (none for sources)")
    }

    @Test func transformsAndSinksReadEveryDescribedKey() throws {
        let filter = try PluginConfigLoader.decode(FilterTransform.Configuration.self, yaml: "expr: value > 1")
        #expect(filter.expr.text == "value > 1")
        #expect(try values(SelectTransform.Configuration.self, "fields: [a, b]") == "{fields: [a, b]}")
        #expect(try values(SelectTransform.Configuration.self, "drop: [c]") == "{drop: [c]}")
        #expect(
            try PluginConfigLoader.decode(RenameTransform.Configuration.self, yaml: "fields: {a: b}").fields == [
                "a": "b"
            ])
        #expect(try PluginConfigLoader.decode(ThrottleTransform.Configuration.self, yaml: "rate: 4").rate == 4)
        let window = try PluginConfigLoader.decode(
            WindowTransform.Configuration.self,
            yaml: "size: 2\nslide: 1\nfields: [v]\nstats: [max]\ngroup_by: k\ngrace: 1")
        #expect(window.size == Seconds(2) && window.slide == Seconds(1) && window.aggregated == ["v"])
        #expect(window.stats == [.max] && window.groupBy == "k" && window.grace == Seconds(1))
        #expect(
            try PluginConfigLoader.decode(WindowTransform.Configuration.self, yaml: "size: 1\nfield: v").aggregated == [
                "v"
            ])
        #expect(
            try values(ConsoleSink.Configuration.self, "format: json\nfields: [v]") == "{format: json, fields: [v]}")
        let sink = try PluginConfigLoader.decode(
            FileSink.Configuration.self,
            yaml:
                "path: o.csv\nformat: jsonl\nappend: true\nsync: true\nfields: [v]\ndecimals: 3\nmetadata: false\nmarkers: false"
        )
        #expect(
            sink.configText
                == "{format: jsonl, append: true, sync: true, fields: [v], decimals: 3, metadata: false, markers: false}"
        )
        #expect(FileSink.configKeys.count == 8 && NullSink.configKeys.isEmpty)
    }

    /// Durations in `daq plugins describe` are written in the unit that keeps them whole.
    @Test func describedDefaultsShowDurationsWithTheirUnit() {
        #expect(WindowTransform.configKeys.first { $0.name == "grace" }?.defaultValue == "250 ms")
        #expect(WindowTransform.configKeys.first { $0.name == "slide" }?.defaultValue == "size")
        #expect(ExecSource.configKeys.first { $0.name == "restart_delay" }?.defaultValue == "500 ms")
    }

    /// The seed is an int key now: a negative one is refused at its line, by name.
    @Test func aNegativeSeedIsRefusedAtItsKey() throws {
        let yaml = """
            sources: {g: {type: generator, count: 1, seed: -3}}
            sinks: {o: {type: null, inputs: [g]}}
            """
        let registry = try PluginRegistry(StandardPlugins.all)
        do {
            _ = try PipelineLoader(registry: registry, environment: [:]).load(text: yaml, file: "f.yaml")
            Issue.record("loaded")
        } catch {
            let d = try #require(error.diagnostics.first)
            #expect(d.description.hasPrefix("f.yaml:1:"), "\(d)")
            #expect(d.description.contains("error: sources.g.seed: must be 0 or more, found -3"), "\(d)")
        }
    }

    @Test func windowRefusesFieldBesideFields() throws {
        #expect(throws: ConfigIssue.self) {
            try PluginConfigLoader.decode(WindowTransform.Configuration.self, yaml: "size: 1\nfield: v\nfields: [w]")
        }
    }
}
