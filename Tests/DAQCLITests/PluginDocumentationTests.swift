import DAQCore
import DAQKit
import DAQStandard
import Testing

@testable import DAQCLI

@Suite("daq plugins", .timeLimit(.minutes(20)))
struct PluginDocumentationTests {
    @Test func describeListsEveryKeyWithTypeDefaultAndDoc() throws {
        let window = try PluginRegistry(StandardPlugins.all).lookup(.transform, "window")!
        let text = PluginDocumentation.text(window, width: 400)
        #expect(text.hasPrefix("window (transform, Standard)"))
        for key in ["inputs", "buffer", "size", "slide", "field", "fields", "stats", "group_by"] {
            #expect(text.contains("\n    \(key) "), "missing \(key)")
        }
        #expect(text.contains("required"))
        #expect(text.contains("default [count, mean, min, max]"))
    }

    @Test func everyBuiltinPluginDocumentsItsKeys() throws {
        for p in try PluginRegistry(BuiltinPlugins.all).all {
            #expect(!p.summary.isEmpty)
            for k in p.configKeys { #expect(!k.doc.isEmpty && !k.type.isEmpty, "\(p.typeName).\(k.name)") }
        }
    }

    @Test func contractTypeNamesAreRegistered() throws {
        let r = try PluginRegistry(BuiltinPlugins.all)
        let sources = [
            "generator", "file", "stdin", "motion.replay", "barcode.serial", "barcode.hid", "barcode.replay",
            "ble.replay", "ble.scan",
        ]
        let transforms = [
            "filter", "select", "rename", "throttle", "window", "motion.magnitude", "motion.lowpass", "motion.highpass",
            "motion.resample", "motion.enmo", "motion.mad", "motion.anglez", "barcode.gs1", "barcode.dedup",
            "barcode.step", "ble.discovery",
        ]
        let sinks = ["console", "file", "null", "logger.json", "logger.jsonl", "logger.csv"]
        for s in sources { #expect(r.lookup(.source, s) != nil, "\(s)") }
        for t in transforms { #expect(r.lookup(.transform, t) != nil, "\(t)") }
        for s in sinks { #expect(r.lookup(.sink, s) != nil, "\(s)") }
    }

    @Test func aNameRegisteredTwiceInOneKindIsRefused() {
        #expect(throws: RegistryError.self) {
            _ = try PluginRegistry(StandardPlugins.all + [.sink(NullSink.self)])
        }
    }
}

@Suite("plugin metadata for the schema", .timeLimit(.minutes(20)))
struct PluginMetadataGrammarTests {
    /// A key whose type text the schema cannot read would silently lose its checks in editors.
    @Test func everyBuiltinKeyTypeFollowsTheGrammar() throws {
        for p in try PluginRegistry(BuiltinPlugins.all).all {
            for k in p.configKeys {
                #expect(k.valueType != nil, "\(p.typeName).\(k.name): '\(k.type)'")
            }
        }
        for kind in PluginKind.allCases {
            for k in ComponentSpec.commonKeys(kind) { #expect(k.valueType != nil, "\(k.name)") }
        }
    }
}
