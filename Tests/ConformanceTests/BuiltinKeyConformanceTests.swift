import DAQCore
import DAQKit
import DAQTesting
import Testing

/// The described keys and the decoded keys agree for every built-in plugin, with each row's own
/// configuration as the baseline the keys are varied on.
@Suite("Built-in plugins describe the keys they decode", .serialized, .timeLimit(.minutes(20)))
struct BuiltinKeyConformanceTests {
    /// Baselines for the plugins the conformance table leaves out.
    static let excludedBaselines: [String: String] = [
        "source ble.scan": "",
        "source stdin": "",
        "source infomanager.news": "base_url: http://127.0.0.1:9",
        // Decoding opens no stream: the keys are checked without a network.
        "source lsl": "name: EEG",
        "sink lsl": "",
    ]

    @Test(arguments: ConformanceTable.entries)
    func keysAgree(_ entry: Entry) throws {
        let plugin = try #require(BuiltinPlugins.all.first { $0.kind == entry.kind && $0.typeName == entry.type })
        let prepared = try entry.prepare()
        let problems = withExtendedLifetime(prepared.keepAlive) {
            KeyConformance.problems(plugin, baseline: prepared.spec.config)
        }
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    @Test func excludedPluginsKeysAgree() throws {
        for exclusion in ConformanceTable.exclusions {
            let name = "\(exclusion.kind.rawValue) \(exclusion.type)"
            let plugin = try #require(
                BuiltinPlugins.all.first { $0.kind == exclusion.kind && $0.typeName == exclusion.type })
            let baseline = try #require(Self.excludedBaselines[name], "no baseline for \(name)")
            let problems = KeyConformance.problems(plugin, baseline: baseline)
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }
}
