import DAQCore

/// The Lab Streaming Layer and XDF plugins: `lsl` in and out (liblsl, loaded when a pipeline
/// first needs it) and LabRecorder's `.xdf` files (`xdf.replay`, `logger.xdf`).
///
/// The two halves share nothing but the module: the XDF files are read and written in Swift and
/// need no liblsl, so replaying or writing `.xdf` works on a machine without it.
public enum LSLPlugins {
    /// Every plugin of the family.
    public static var all: [PluginDescriptor] { LSLLivePlugins.all + XDFPlugins.all }
}
