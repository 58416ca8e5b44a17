import DAQCore

/// The live half: the `lsl` source and sink.
enum LSLLivePlugins {
    static var all: [PluginDescriptor] {
        [.source(LSLSource.self, module: "LSL"), .sink(LSLSink.self, module: "LSL")]
    }
}
