import DAQCore
import DAQSHA256
import Testing

/// `--set key.path=value` overrides, applied after substitution.
@Suite("Config: --set overrides", .timeLimit(.minutes(20)))
struct ConfigOverrideTests {
    @Test func topLevelNumber() throws {
        let spec = try V.load(V.minimal + "speed: 1\n", overrides: ["speed=2"])
        #expect(spec.speed == 2)
    }

    @Test func nestedValueReplacesFileValue() throws {
        let spec = try V.load(V.minimal, overrides: ["sources.src.rate=20", "sinks.out.path=/tmp/o.txt"])
        let ticker = try #require(spec.component("src")?.configuration as? TickerSource.Configuration)
        let printer = try #require(spec.component("out")?.configuration as? PrinterSink.Configuration)
        #expect(ticker.rate == 20)
        #expect(printer.path == "/tmp/o.txt")
    }

    @Test func overrideCreatesMissingMappingsAndListValues() throws {
        let spec = try V.load(
            V.minimal,
            overrides: [
                "transforms.win.type=window", "transforms.win.size=3", "transforms.win.inputs=[src]",
                "sinks.out.inputs=[src, win]",
            ])
        #expect(spec.component("win")?.inputs == ["src"])
        #expect(spec.component("out")?.inputs == ["src", "win"])
    }

    @Test func overridesChangeTheConfigHash() throws {
        var loader = try V.loader()
        loader.contentHash = .sha256
        let a = try loader.load(text: V.minimal, file: "p.yaml")
        loader.overrides = ["speed=2"]
        let b = try loader.load(text: V.minimal, file: "p.yaml")
        #expect(a.configHash != b.configHash)
        #expect(a.configHash.count == 64)
    }

    @Test(arguments: [
        ("speed", "expected key.path=value, found 'speed'"),
        ("=2", "empty key in '=2'"),
        ("sources..rate=1", "empty key in 'sources..rate=1'"),
    ])
    func malformedOverride(_ text: String, _ message: String) throws {
        let all = try V.diagnostics(V.minimal, overrides: [text])
        try #require(all.count == 1)
        #expect(all[0].file == "--set")
        #expect(all[0].line == nil && all[0].column == nil)
        #expect(all[0].message == message)
        #expect(all[0].description == "--set: error: \(message)")
    }

    @Test(arguments: [
        ("speed=fast", "speed", "expected a number greater than 0, found 'fast' (set by --set)"),
        ("speed=0", "speed", "must be greater than 0, found 0 (set by --set)"),
        ("clock=realtme", "clock", "unknown value 'realtme' (did you mean 'realtime'?)"),
        ("sources.src.rate=0", "sources.src.rate", "must be greater than 0 Hz, found 0.0 (set by --set)"),
        ("sources.src.rat=1", "sources.src.rat", "unknown key 'rat' for source type 'ticker' (did you mean 'rate'?)"),
        ("sinks.out.inputs=srcc", "sinks.out.inputs", "unknown component 'srcc' (did you mean 'src'?) (set by --set)"),
    ])
    func invalidOverriddenValueHasNoLine(_ text: String, _ path: String, _ message: String) throws {
        let d = try V.single(V.minimal, overrides: [text])
        expectDiagnostic(d, line: nil, column: nil, path: path, message)
        #expect(d.message.hasSuffix("(set by --set)"), "\(d)")
    }

    @Test func wrongTypedOverriddenPluginValue() throws {
        let d = try V.single(V.minimal, overrides: ["sources.src.rate=fast"])
        #expect(d.path == "sources.src.rate")
        expectDiagnostic(
            d, line: nil, column: nil, path: "sources.src.rate", "expected a number, found 'fast' (set by --set)")
    }

    @Test func fileErrorsKeepTheirLinesNextToOverrides() throws {
        let yaml = V.minimal + "clock: wall\n"
        let all = try V.errors(yaml, overrides: ["speed=-1"])
        try #require(all.count == 2, "\(all.map(\.description))")
        expectDiagnostic(all[0], line: 9, column: 8, path: "clock", "unknown value 'wall'")
        expectDiagnostic(
            all[1], line: nil, column: nil, path: "speed", "must be greater than 0, found -1 (set by --set)")
    }
}
