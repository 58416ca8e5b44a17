import DAQCore
import DAQStandard
import DAQTesting
import Testing

@testable import DAQInfoManager

/// Every key an Info Manager plugin describes is the key its configuration reads, and the
/// resolver's keys are declared once for the transform and the sink.
@Suite("Info Manager configuration keys", .timeLimit(.minutes(20)))
struct InfoManagerKeysTests {
    static let resolverYAML = """
        base_url: http://127.0.0.1:9
        id_field: code
        input_type: barcode
        languages: de,en
        enabled: false
        timeout: 5s
        max_in_flight: 3
        retries: 4
        backoff: 1s
        cache: {ttl: 1m, max_entries: 5, path: c.json}
        token_env: PATH
        """
    static let resolverText =
        "id_field: code, input_type: barcode, languages: [de, en], enabled: false, timeout: 5 s, max_in_flight: 3, "
        + "retries: 4, backoff: 1 s, cache: {ttl: 60 s, max_entries: 5, path: c.json}, token_env: PATH"

    @Test func theTransformReadsEveryDescribedKey() throws {
        let c = try PluginConfigLoader.decode(
            ResolveTransform.Configuration.self, yaml: Self.resolverYAML + "\nprefix: info.")
        #expect(c.resolver.baseURL == "http://127.0.0.1:9" && c.resolver.inputType == .barcode)
        #expect(c.configText == "{" + Self.resolverText + ", prefix: info.}")
        #expect(ResolveTransform.configKeys.map(\.name).last == "prefix" && ResolveTransform.configKeys.count == 12)
    }

    @Test func theSinkReadsEveryDescribedKeyButPrefix() throws {
        let c = try PluginConfigLoader.decode(
            ResolveSink.Configuration.self, yaml: Self.resolverYAML + "\npath: e.jsonl")
        #expect(c.path == "e.jsonl")
        #expect(c.configText == "{" + Self.resolverText + "}")
        #expect(ResolveSink.configKeys.map(\.name).first == "path" && ResolveSink.configKeys.count == 12)
        #expect(!ResolveSink.configKeys.contains { $0.name == "prefix" })
    }

    @Test func newsReadsEveryDescribedKey() throws {
        let c = try PluginConfigLoader.decode(
            NewsSettings.self,
            yaml:
                "base_url: http://127.0.0.1:9\nlanguages: [de]\ninterval: 2m\ntimeout: 1s\nretries: 0\ntoken_env: PATH")
        #expect(c.baseURL == "http://127.0.0.1:9")
        #expect(c.configText == "{languages: [de], interval: 120 s, timeout: 1 s, retries: 0, token_env: PATH}")
        #expect(NewsSource.configKeys.count == 6)
    }

    /// The `cache` mapping's keys are declared like the others, so a misspelled one gets a
    /// did-you-mean at its own line.
    @Test func aMisspelledCacheKeyIsRefusedWithADidYouMean() throws {
        let yaml = """
            sources: {g: {type: generator, count: 1}}
            transforms:
              r:
                type: infomanager.resolve
                inputs: [g]
                base_url: http://127.0.0.1:9
                cache: {tll: 5m}
            sinks: {o: {type: null, inputs: [r]}}
            """
        let registry = try PluginRegistry(StandardPlugins.all + InfoManagerPlugins.all)
        do {
            _ = try PipelineLoader(registry: registry, environment: [:]).load(text: yaml, file: "r.yaml")
            Issue.record("loaded")
        } catch {
            let d = try #require(error.diagnostics.first)
            #expect(d.description.hasPrefix("r.yaml:7:"), "\(d)")
            #expect(
                d.description.contains(
                    "error: transforms.r.cache.tll: unknown key 'tll' (did you mean 'ttl'?); expected ttl, max_entries, path"
                ),
                "\(d)")
        }
    }

    @Test func anUnknownInputTypeKeepsItsMessage() throws {
        #expect {
            try PluginConfigLoader.decode(
                ResolveTransform.Configuration.self, yaml: "base_url: http://127.0.0.1:9\ninput_type: rocket")
        } throws: { error in
            (error as? ConfigIssue)?.message == "unknown input type 'rocket'; expected beacon, barcode or nfc"
                && (error as? ConfigIssue)?.path == ["input_type"]
        }
    }
}
