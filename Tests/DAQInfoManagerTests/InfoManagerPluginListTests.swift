import DAQCore
import DAQInfoManager
import Testing

@Suite struct InfoManagerPluginListTests {
    @Test func everyPluginIsFromTheInfoManagerModule() {
        #expect(InfoManagerPlugins.all.allSatisfy { $0.module == "InfoManager" })
    }
}
