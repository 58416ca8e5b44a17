import DAQBLE
import DAQCore
import Testing

@Suite(.timeLimit(.minutes(20))) struct BLEPluginListTests {
    @Test func everyPluginIsFromTheBLEModule() {
        #expect(BLEPlugins.all.allSatisfy { $0.module == "BLE" })
    }
}
