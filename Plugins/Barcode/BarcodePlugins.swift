import DAQCore

/// The plugins of the Barcode family: scanner sources, scan sessions, GS1 parsing.
public enum BarcodePlugins {
    /// Every Barcode plugin.
    public static let all: [PluginDescriptor] = []
}
