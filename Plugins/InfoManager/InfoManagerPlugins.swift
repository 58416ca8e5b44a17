import DAQCore

/// The plugins of the InfoManager family: the resolver stage, as a transform and as a sink.
public enum InfoManagerPlugins {
    /// Every InfoManager plugin.
    public static let all: [PluginDescriptor] = []
}
