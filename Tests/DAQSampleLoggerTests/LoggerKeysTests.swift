import DAQCore
import DAQSampleLogger
import DAQTesting
import Testing

/// Every key a logger describes is the key its configuration reads; `root` belongs to
/// `logger.json` alone, between the keys every logger shares.
@Suite("Logger configuration keys", .timeLimit(.minutes(20)))
struct LoggerKeysTests {
    @Test func everyLoggerReadsEveryDescribedKey() throws {
        let shared = try PluginConfigLoader.decode(
            LoggerConfiguration.self, yaml: "directory: out\nidentifiers: {a: acc}\ndecimals: 3\nfsync: true")
        #expect(shared.directory == "out" && shared.identifiers == ["a": "acc"])
        #expect(shared.configText == "{identifiers: {a: acc}, decimals: 3, fsync: true}")
        let json = try PluginConfigLoader.decode(
            JSONLoggerSink.Configuration.self,
            yaml: "directory: out\nidentifiers: {a: acc}\nroot: array\ndecimals: 3\nfsync: true")
        #expect(json.configText == "{identifiers: {a: acc}, root: array, decimals: 3, fsync: true}")
    }

    @Test func onlyTheJSONLoggerDescribesRoot() {
        #expect(JSONLoggerSink.configKeys.map(\.name) == ["directory", "identifiers", "root", "decimals", "fsync"])
        for keys in [JSONLinesLoggerSink.configKeys, CSVLoggerSink.configKeys] {
            #expect(keys.map(\.name) == ["directory", "identifiers", "decimals", "fsync"])
        }
    }

    @Test func aSharedIdentifierIsStillRefusedByStream() throws {
        #expect {
            try PluginConfigLoader.decode(
                JSONLoggerSink.Configuration.self, yaml: "directory: out\nidentifiers: {a: x, b: x}")
        } throws: { error in
            (error as? ConfigIssue)?.path == ["identifiers", "b"]
        }
    }
}
