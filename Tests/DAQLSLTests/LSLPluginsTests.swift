import DAQCore
import DAQLSL
import Testing

@Suite("LSL plugin family")
struct LSLPluginsTests {
    /// Every type the architecture names for the family is registered, once, under its kind.
    @Test func everyTypeIsRegisteredOnce() {
        let names = LSLPlugins.all.map { "\($0.kind.rawValue):\($0.typeName)" }
        #expect(names.sorted() == ["sink:logger.xdf", "sink:lsl", "source:lsl", "source:xdf.replay"], "\(names)")
    }
}
