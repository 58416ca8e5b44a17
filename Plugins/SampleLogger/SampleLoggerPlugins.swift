import DAQCore

/// The plugins of the SampleLogger family: `logger.json`, `logger.jsonl`, `logger.csv`.
public enum SampleLoggerPlugins {
    /// Every SampleLogger plugin.
    public static let all: [PluginDescriptor] = []
}
