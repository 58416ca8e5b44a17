import DAQCore

/// The file half: `xdf.replay` and `logger.xdf`.
enum XDFPlugins {
    static var all: [PluginDescriptor] {
        [.source(XDFReplaySource.self, module: "LSL"), .sink(XDFLoggerSink.self, module: "LSL")]
    }
}
