import DAQTesting
import Testing

@testable import DAQCore

/// Connection keys two plugins share: stored as a plain property, they sit beside the others.
private struct Connection: SettingGroup {
    @Setting("Broker host.") var host = "127.0.0.1"
    @Setting("Broker port.") var port = 1883
}

/// A mapping under one key, with its own unknown-key check.
private struct Cache: SettingGroup {
    @Setting("How long answers stay fresh.") var ttl = Seconds(300)
    @Setting("Answers kept.") var maxEntries = 100_000
    @Setting(type: "path", "Where answers persist.") var path = ""
}

private enum Shape: String, ConfigEnum { case sine, square }

private struct Sample: PluginConfiguration {
    @Setting(required: "The file to read.") var path: String
    @Setting("Requests open at once.") var maxInFlight = 8
    @Setting(key: "base_url", "The service.") var service = "http://127.0.0.1"
    @Setting("Waveform.") var shape = Shape.sine
    @Setting("Wait before a retry.") var backoff = Seconds(0.1)
    @Setting(type: "double (Hz)", whenUnset: "the file's own rate", "Sample rate.") var rate: Double?
    @Setting("Languages.") var languages = ["en"]
    @Setting("Answers kept.") var cache = Cache()
    var connection = Connection()

    func validate() throws {
        if maxInFlight < 1 { throw $maxInFlight.issue("must be at least 1") }
        if cache.ttl.value < 0 { throw cache.$ttl.issue("must be 0 s or more") }
    }
}

private func decode(_ yaml: String) throws -> Sample {
    // From a node, as validation decodes: Yams wraps what a decode from text throws.
    try PluginConfigLoader.decode(Sample.self, yaml: yaml)
}

@Suite("Settings: one declaration per key", .timeLimit(.minutes(20)))
struct SettingTests {
    @Test func keysDeriveFromTheDeclarations() {
        let keys = Sample.declaredKeys
        #expect(
            keys.map(\.name) == [
                "path", "max_in_flight", "base_url", "shape", "backoff", "rate", "languages", "cache", "host", "port",
            ])
        let byName = Dictionary(uniqueKeysWithValues: keys.map { ($0.name, $0) })
        #expect(byName["path"]?.required == true && byName["path"]?.defaultValue == nil)
        #expect(byName["max_in_flight"].map { [$0.type, $0.defaultValue] } == ["int", "8"])
        #expect(byName["shape"].map { [$0.type, $0.defaultValue] } == ["sine | square", "sine"])
        #expect(byName["backoff"].map { [$0.type, $0.defaultValue] } == ["seconds", "100 ms"])
        #expect(byName["rate"].map { [$0.type, $0.defaultValue] } == ["double (Hz)", "the file's own rate"])
        #expect(byName["languages"].map { [$0.type, $0.defaultValue] } == ["[string]", "[en]"])
        #expect(
            byName["cache"].map { [$0.type, $0.defaultValue] } == [
                "{ttl, max_entries, path}", "{ttl: 300 s, max_entries: 100000}",
            ])
        #expect(keys.allSatisfy { $0.valueType != nil })
    }

    @Test func absentKeysKeepTheirDefaults() throws {
        let c = try decode("path: a.csv\n")
        #expect(c.path == "a.csv" && c.maxInFlight == 8 && c.shape == .sine && c.rate == nil)
        #expect(c.cache.ttl == Seconds(300) && c.connection.port == 1883)
    }

    @Test func writtenKeysAreRead() throws {
        let c = try decode(
            "path: a.csv\nmax_in_flight: 3\nbase_url: http://x\nshape: square\nbackoff: 2s\nrate: 50\n"
                + "languages: [de]\ncache: {ttl: 1m}\nport: 1884\n")
        #expect(c.maxInFlight == 3 && c.service == "http://x" && c.shape == .square && c.backoff == Seconds(2))
        #expect(c.rate == 50 && c.languages == ["de"] && c.cache.ttl == Seconds(60) && c.cache.maxEntries == 100_000)
        #expect(c.connection.port == 1884 && c.connection.host == "127.0.0.1")
    }

    @Test func aSettingKnowsWhetherItWasWritten() throws {
        let c = try decode("path: a.csv\nshape: sine\n")
        #expect(c.$shape.isWritten && c.$path.isWritten)
        #expect(!c.$maxInFlight.isWritten && !c.cache.$ttl.isWritten)
    }

    @Test func aKeysValueIsReadByItsYAMLName() throws {
        let c = try decode("path: a.csv\nport: 1884\n")
        #expect(c.value(ofKey: "path") as? String == "a.csv")
        #expect(c.value(ofKey: "port") as? Int == 1884)
        #expect(c.value(ofKey: "max_in_flight") as? Int == 8)
        #expect(c.value(ofKey: "rate") == nil && c.value(ofKey: "no_such_key") == nil)
    }

    @Test func aMissingRequiredKeyIsAnError() {
        #expect(throws: DecodingError.self) { try decode("max_in_flight: 3\n") }
    }

    @Test func aWrongTypeIsADecodingErrorAtTheKey() throws {
        let error = try #require(throws: DecodingError.self) { try decode("path: a\nmax_in_flight: many\n") }
        guard case .typeMismatch(_, let context) = error else {
            Issue.record("expected a type mismatch, got \(error)")
            return
        }
        #expect(context.codingPath.map(\.stringValue) == ["max_in_flight"])
    }

    @Test func aNestedUnknownKeyIsRefusedWithAGuess() throws {
        let issue = try #require(throws: ConfigIssue.self) { try decode("path: a\ncache: {tll: 5}\n") }
        #expect(issue.path == ["cache", "tll"])
        #expect(issue.message == "unknown key 'tll' (did you mean 'ttl'?); expected ttl, max_entries, path")
    }

    @Test func issuesNameTheDecodedKeyPath() throws {
        let top = try #require(throws: ConfigIssue.self) { try decode("path: a\nmax_in_flight: 0\n") }
        #expect(top.path == ["max_in_flight"] && top.message == "must be at least 1")
        let nested = try #require(throws: ConfigIssue.self) { try decode("path: a\ncache: {ttl: -1}\n") }
        #expect(nested.path == ["cache", "ttl"])
    }

    @Test func aCopyNeverSharesAChange() throws {
        let original = try decode("path: a.csv\n")
        var copy = original
        copy.maxInFlight = 99
        copy.path = "b.csv"
        #expect(original.maxInFlight == 8 && original.path == "a.csv")
        #expect(copy.maxInFlight == 99 && copy.path == "b.csv")
    }

    @Test(arguments: [
        ("maxInFlight", "max_in_flight"), ("baseURL", "base_url"), ("x", "x"), ("idField", "id_field"),
        ("cutoffHz", "cutoff_hz"), ("scanDuration", "scan_duration"), ("urlPath", "url_path"), ("id3Tag", "id3_tag"),
    ])
    func propertyNamesBecomeSnakeCaseKeys(_ property: String, _ key: String) {
        #expect(SettingsReader.snakeCase(property) == key)
    }
}
