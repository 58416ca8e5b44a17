import DAQCore

/// The plugins of the Transport family: the `mqtt` source and sink.
public enum TransportPlugins {
    /// Every Transport plugin, for ``PluginRegistry``.
    public static let all: [PluginDescriptor] = [
        .source(MQTTSource.self, module: "Transport"),
        .sink(MQTTSink.self, module: "Transport"),
    ]
}
