import DAQCore

/// The plugins of the Storage family: `parquet` and `postgres`.
public enum StoragePlugins {
    /// Every Storage plugin.
    public static let all: [PluginDescriptor] = [
        .sink(ParquetSink.self, module: "Storage"),
        .sink(PostgresSink.self, module: "Storage"),
    ]
}
