import DAQCore

/// The plugins of this package, registered beside the built-in ones in `daq-custom`'s
/// main.swift and in tests.
public enum LabPlugins {
    /// `lab.dmm` (source) and `lab.rtd` (transform).
    public static let all: [PluginDescriptor] = [
        .source(DMMSource.self, module: "LabPlugins"),
        .transform(RTDTransform.self, module: "LabPlugins"),
    ]
}
