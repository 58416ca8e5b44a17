import DAQCore

/// The plugins of the Info Manager family: the resolver as transform and as sink, the news as a source.
public enum InfoManagerPlugins {
    /// Every Info Manager plugin.
    public static let all: [PluginDescriptor] = [
        .transform(ResolveTransform.self, module: "InfoManager"),
        .sink(ResolveSink.self, module: "InfoManager"),
        .source(NewsSource.self, module: "InfoManager"),
    ]
}
