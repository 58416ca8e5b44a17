import DAQCore

/// The plugins of the Barcode family: scanner sources with scan sessions, GS1 parsing,
/// repeat suppression and step cards.
public enum BarcodePlugins {
    /// Every Barcode plugin.
    public static let all: [PluginDescriptor] = [
        .source(SerialScannerSource.self, module: "Barcode"),
        .source(HIDScannerSource.self, module: "Barcode"),
        .source(ReplayScannerSource.self, module: "Barcode"),
        .transform(GS1Transform.self, module: "Barcode"),
        .transform(DedupTransform.self, module: "Barcode"),
        .transform(StepTransform.self, module: "Barcode"),
    ]
}
