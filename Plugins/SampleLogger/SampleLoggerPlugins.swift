import DAQCore

/// The plugins of the SampleLogger family: `logger.json`, `logger.jsonl`, `logger.csv`.
public enum SampleLoggerPlugins {
    /// Every SampleLogger plugin.
    public static let all: [PluginDescriptor] = [
        .sink(JSONLoggerSink.self, module: "SampleLogger"),
        .sink(JSONLinesLoggerSink.self, module: "SampleLogger"),
        .sink(CSVLoggerSink.self, module: "SampleLogger"),
    ]
}
