import DAQBarcode
import DAQCore
import Testing

@Suite(.timeLimit(.minutes(20))) struct BarcodePluginListTests {
    @Test func everyPluginIsFromTheBarcodeModule() {
        #expect(BarcodePlugins.all.allSatisfy { $0.module == "Barcode" })
    }
}
