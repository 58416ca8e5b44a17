import DAQBLE
import DAQCore
import Testing

@Suite struct BLEPluginListTests {
    @Test func everyPluginIsFromTheBLEModule() {
        #expect(BLEPlugins.all.allSatisfy { $0.module == "BLE" })
    }
}
