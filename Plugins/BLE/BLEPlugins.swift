import DAQCore

/// The plugins of the BLE family: capture replay, live HCI scanning and discovery windows.
public enum BLEPlugins {
    /// Every BLE plugin.
    public static let all: [PluginDescriptor] = [
        .source(BLEReplaySource.self, module: "BLE"),
        .source(BLEScanSource.self, module: "BLE"),
        .transform(DiscoveryTransform.self, module: "BLE"),
    ]
}
