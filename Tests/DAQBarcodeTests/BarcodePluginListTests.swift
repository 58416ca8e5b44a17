import DAQBarcode
import DAQCore
import Testing

@Suite struct BarcodePluginListTests {
    @Test func everyPluginIsFromTheBarcodeModule() {
        #expect(BarcodePlugins.all.allSatisfy { $0.module == "Barcode" })
    }
}
