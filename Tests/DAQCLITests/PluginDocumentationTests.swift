@testable import DAQCLI
import DAQCore
import DAQStandard
import Testing

@Suite("daq plugins")
struct PluginDocumentationTests {
    @Test func describeListsEveryKeyWithTypeDefaultAndDoc() throws {
        let window = try PluginRegistry(StandardPlugins.all).lookup(.transform, "window")!
        let text = PluginDocumentation.text(window)
        #expect(text.hasPrefix("window (transform, Standard)"))
        for key in ["inputs", "buffer", "size", "slide", "field", "fields", "stats", "group_by"] {
            #expect(text.contains("\n    \(key) "), "missing \(key)")
        }
        #expect(text.contains("required"))
        #expect(text.contains("default [count, mean, min, max]"))
    }

    @Test func everyStandardPluginDocumentsItsKeys() throws {
        for p in try PluginRegistry(StandardPlugins.all).all {
            #expect(!p.summary.isEmpty)
            for k in p.configKeys { #expect(!k.doc.isEmpty && !k.type.isEmpty, "\(p.typeName).\(k.name)") }
        }
    }

    @Test func contractTypeNamesAreRegistered() throws {
        let r = try PluginRegistry(StandardPlugins.all)
        for s in ["generator", "file", "stdin"] { #expect(r.lookup(.source, s) != nil) }
        for t in ["filter", "select", "rename", "throttle", "window"] { #expect(r.lookup(.transform, t) != nil) }
        for s in ["console", "file", "null"] { #expect(r.lookup(.sink, s) != nil) }
    }

    @Test func aNameRegisteredTwiceInOneKindIsRefused() {
        #expect(throws: RegistryError.self) {
            _ = try PluginRegistry(StandardPlugins.all + [.sink(NullSink.self)])
        }
    }
}
