import DAQCore
import DAQTesting
import Testing

@testable import DAQBarcode

/// Every key a barcode plugin describes is the key its configuration reads; the session keys
/// are declared once for the three scanner sources.
@Suite("Barcode configuration keys", .timeLimit(.minutes(20)))
struct BarcodeKeysTests {
    static let session = "mode: triggered\ntimeout: 2s\ntrigger_from: k\nmax_length: 64"

    /// The session keys of ``session`` reached the configuration.
    func expectSession(_ s: SessionSettings) {
        #expect(s.mode == .triggered && s.timeout == Seconds(2) && s.triggerFrom == "k" && s.maxLength == 64)
    }

    @Test func theDeviceSourcesReadEveryDescribedKey() throws {
        let serial = try PluginConfigLoader.decode(
            SerialScannerSource.Configuration.self,
            yaml: "device: /dev/ttyACM0\nbaud: 115200\ndata_bits: 7\nparity: even\nstop_bits: 2\nterminator: \"0x03\"\n"
                + "reopen_interval: 3s\n" + Self.session)
        #expect(serial.device == "/dev/ttyACM0" && serial.terminator == .byte(3))
        #expect(serial.serial.baud == 115200 && serial.serial.dataBits == 7 && serial.serial.parity == .even)
        #expect(serial.serial.stopBits == 2 && serial.reopen.reopenInterval == Seconds(3))
        expectSession(serial.session)
        #expect(SerialScannerSource.configKeys.count == 12)
        let hid = try PluginConfigLoader.decode(
            HIDScannerSource.Configuration.self,
            yaml: "device: /dev/input/event3\nlayout: de\ngrab: false\nreopen_interval: 3s\n" + Self.session)
        #expect(hid.device == "/dev/input/event3" && hid.layout == .de && !hid.grab)
        #expect(hid.reopen.reopenInterval == Seconds(3))
        expectSession(hid.session)
        #expect(HIDScannerSource.configKeys.count == 9)
    }

    @Test func theReplaySourceReadsEveryDescribedKey() throws {
        let replay = try PluginConfigLoader.decode(
            ReplayScannerSource.Configuration.self,
            yaml:
                "path: \"-\"\nformat: text\non_bad_row: skip\nmode: triggered\ntimeout: 1s\ncontrol: ctl\nmax_length: 8"
        )
        #expect(replay.path == "-" && replay.format == .text && replay.onBadRow == .skip)
        #expect(replay.session.mode == .triggered && replay.session.timeout == Seconds(1))
        #expect(replay.session.control == "ctl" && replay.session.maxLength == 8)
        #expect(ReplayScannerSource.configKeys.count == 8)
        let timeout = ReplayScannerSource.configKeys.first { $0.name == "timeout" }
        #expect(timeout?.defaultValue == "5 s when triggered")
    }

    @Test func theTransformsReadEveryDescribedKey() throws {
        let gs1 = try PluginConfigLoader.decode(GS1Transform.Configuration.self, yaml: "field: c\ndetect: always")
        #expect(gs1.configText == "{field: c, detect: always}")
        let older = try PluginConfigLoader.decode(GS1Transform.Configuration.self, yaml: "assume_gs1: false")
        #expect(older.detection == .symbology)
        #expect(throws: ConfigIssue.self) {
            try PluginConfigLoader.decode(GS1Transform.Configuration.self, yaml: "assume_gs1: true\ndetect: auto")
        }
        let dedup = try PluginConfigLoader.decode(DedupTransform.Configuration.self, yaml: "window: 5s\nfield: c")
        #expect(dedup.configText == "{window: 5 s, field: c}")
        let step = try PluginConfigLoader.decode(
            StepTransform.Configuration.self, yaml: "prefix: null\ncodes: [{code: \"0042\", step: walk}]\nfield: c")
        #expect(step.prefix == nil && step.cards.map(\.code) == ["0042"] && step.field == "c")
        #expect(try PluginConfigLoader.decode(StepTransform.Configuration.self, yaml: "field: c").prefix == "STEP:")
    }
}
