import DAQCore
import DAQTesting
import Testing

@testable import DAQBLE

/// Every key a BLE plugin describes is the key its configuration reads; `decoders` is declared
/// once for both sources.
@Suite("BLE configuration keys", .timeLimit(.minutes(20)))
struct BLEKeysTests {
    static let decoders = "decoders: [{company_id: 0x0059, name: acme, fields: [{name: t, offset: 0, type: u8}]}]"

    @Test func theSourcesReadEveryDescribedKey() throws {
        let scan = try PluginConfigLoader.decode(
            BLEScanSource.Configuration.self,
            yaml: "adapter: hci1\nactive: true\ninterval: 100ms\nwindow: 50ms\nfilter_duplicates: true\n"
                + Self.decoders)
        #expect(scan.custom.decoders.map(\.name) == ["acme"])
        let shown = "{adapter: hci1, active: true, interval: 100 ms, window: 50 ms, filter_duplicates: true"
        #expect(scan.configText?.hasPrefix(shown) == true)
        #expect(BLEScanSource.configKeys.count == 6)
        let replay = try PluginConfigLoader.decode(
            BLEReplaySource.Configuration.self, yaml: "path: c.btsnoop\n" + Self.decoders)
        #expect(replay.path == "c.btsnoop" && replay.custom.decoders.map(\.companyID) == [0x59])
        #expect(BLEReplaySource.configKeys.map(\.name) == ["path", "decoders"])
        #expect(BLEScanSource.configKeys.last == BLEReplaySource.configKeys.last)
    }

    @Test func discoveryReadsEveryDescribedKey() throws {
        let c = try PluginConfigLoader.decode(
            DiscoverySettings.self,
            yaml: "rssi_threshold: -80\nscan_duration: 5s\npause_between: 1s\nidentify_by: address\n"
                + "path_loss_exponent: 3\nvalues: last")
        #expect(
            c.configText
                == "{rssi_threshold: -80, scan_duration: 5 s, pause_between: 1 s, identify_by: address, path_loss_exponent: 3, values: last}"
        )
        #expect(DiscoveryTransform.configKeys.count == 6)
    }

    @Test func aDecoderProblemStillNamesItsItem() throws {
        #expect {
            try PluginConfigLoader.decode(
                BLEReplaySource.Configuration.self,
                yaml: "path: c\ndecoders: [{company_id: 70000, name: acme, fields: []}]")
        } throws: { error in
            (error as? ConfigIssue)?.path == ["decoders", "0", "company_id"]
        }
    }
}
