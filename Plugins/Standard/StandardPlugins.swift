import DAQCore

/// The plugins of the Standard family: demo, file and stdin sources; filter, select, rename,
/// throttle and window transforms; console, file and null sinks; and `exec` as all three.
public enum StandardPlugins {
    /// Every Standard plugin, for ``PluginRegistry``.
    public static let all: [PluginDescriptor] = [
        .source(GeneratorSource.self, module: "Standard"),
        .source(FileSource.self, module: "Standard"),
        .source(StdinSource.self, module: "Standard"),
        .source(ExecSource.self, module: "Standard"),
        .transform(FilterTransform.self, module: "Standard"),
        .transform(SelectTransform.self, module: "Standard"),
        .transform(RenameTransform.self, module: "Standard"),
        .transform(ThrottleTransform.self, module: "Standard"),
        .transform(WindowTransform.self, module: "Standard"),
        .transform(ExecTransform.self, module: "Standard"),
        .sink(ConsoleSink.self, module: "Standard"),
        .sink(FileSink.self, module: "Standard"),
        .sink(NullSink.self, module: "Standard"),
        .sink(ExecSink.self, module: "Standard"),
    ]
}
