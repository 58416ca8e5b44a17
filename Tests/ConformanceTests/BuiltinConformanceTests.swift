import DAQCLI
import DAQCore
import DAQKit
import DAQTesting
import Foundation
import Testing

/// The conformance suite run on every built-in plugin, one row of ``ConformanceTable`` each.
///
/// Serialized: each row starts pipelines of up to a million samples and copies of the plugin
/// waiting on I/O, and rows running side by side would only compete for the same two cores.
@Suite("Built-in plugins conform", .serialized, .timeLimit(.minutes(20)))
struct BuiltinConformanceTests {
    @Test(arguments: ConformanceTable.entries)
    func conforms(_ entry: Entry) throws {
        let plugin = try #require(
            BuiltinPlugins.all.first { $0.kind == entry.kind && $0.typeName == entry.type },
            "no built-in \(entry.kind.rawValue) named \(entry.type)")
        let prepared = try entry.prepare()
        let report = withExtendedLifetime(prepared.keepAlive) { PluginConformance.check(plugin, prepared.spec) }
        // Standard error: unbuffered, so a long run shows each plugin's report as it ends.
        FileHandle.standardError.write(Data("\(report)\n".utf8))
        #expect(report.passed, "\(ConformanceFailure(report: report))")
    }

    /// A new built-in plugin cannot skip the suite: it needs a row, or an exclusion that says why.
    @Test func everyBuiltinPluginHasAnEntryOrAReasonedExclusion() {
        let entries = Set(ConformanceTable.entries.map { "\($0.kind.rawValue) \($0.type)" })
        let excluded = Set(ConformanceTable.exclusions.map { "\($0.kind.rawValue) \($0.type)" })
        for e in ConformanceTable.exclusions {
            FileHandle.standardError.write(
                Data("conformance: excluded \(e.kind.rawValue) \(e.type): \(e.reason)\n".utf8))
            #expect(!e.reason.isEmpty)
        }
        let builtins = BuiltinPlugins.all.map { "\($0.kind.rawValue) \($0.typeName)" }
        for plugin in builtins {
            #expect(
                entries.contains(plugin) || excluded.contains(plugin),
                "\(plugin) has no conformance entry and no exclusion")
        }
        #expect(entries.isDisjoint(with: excluded), "listed both ways: \(entries.intersection(excluded))")
        #expect(entries.union(excluded).isSubset(of: Set(builtins)), "rows for plugins that are not built in")
        #expect(entries.count == ConformanceTable.entries.count, "a plugin has two rows")
    }
}
